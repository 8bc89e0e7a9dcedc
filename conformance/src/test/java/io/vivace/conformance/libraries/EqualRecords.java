package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Two SequenceFiles hold equal records, in the same order, as the records' own {@code equals}
 * sees them. A value that collects the values of one reduce key in the order they arrived (a Mahout
 * vector keeps its entries in the order they were set) is serialised in that order: equal records
 * whose bytes differ. Reads with the thread's context class loader (the job's classes).
 */
final class EqualRecords {

  private EqualRecords() {}

  /**
   * Asserts equal records, each key and value mapped by {@code canonical} before {@code equals};
   * returns how many of them differ in their bytes.
   */
  static long assertEqual(Path expected, Path actual, String what, UnaryOperator<Object> canonical) throws IOException {
    Configuration conf = new Configuration();
    try (SequenceFile.Reader re = open(conf, expected); SequenceFile.Reader ra = open(conf, actual)) {
      assertEquals(re.getKeyClassName(), ra.getKeyClassName(), what + ": key class");
      assertEquals(re.getValueClassName(), ra.getValueClassName(), what + ": value class");
      Writable ke = (Writable) ReflectionUtils.newInstance(re.getKeyClass(), conf);
      Writable ve = (Writable) ReflectionUtils.newInstance(re.getValueClass(), conf);
      Writable ka = (Writable) ReflectionUtils.newInstance(ra.getKeyClass(), conf);
      Writable va = (Writable) ReflectionUtils.newInstance(ra.getValueClass(), conf);
      long record = 0;
      long bytesDiffer = 0;
      while (true) {
        boolean moreE = re.next(ke, ve);
        boolean moreA = ra.next(ka, va);
        if (!moreE || !moreA) {
          if (moreE != moreA) {
            fail(what + ": " + (moreE ? "actual" : "expected") + " ends after " + record + " records, the other has more");
          }
          return bytesDiffer;
        }
        if (!canonical.apply(ke).equals(canonical.apply(ka)) || !canonical.apply(ve).equals(canonical.apply(va))) {
          fail(what + ": record " + record + " differs:\n  expected " + ke + "\t" + ve + "\n  actual   " + ka + "\t" + va);
        }
        if (!sameBytes(ke, ka) || !sameBytes(ve, va)) {
          bytesDiffer++;
        }
        record++;
      }
    }
  }

  /** Two files that each hold one {@code className} Writable hold equal ones. */
  static void assertEqualWritable(Path expected, Path actual, String className, String what,
      UnaryOperator<Object> canonical) throws IOException {
    Configuration conf = new Configuration();
    Writable e = read(expected, className, conf);
    Writable a = read(actual, className, conf);
    if (!canonical.apply(e).equals(canonical.apply(a))) {
      fail(what + " differs:\n  expected " + e + "\n  actual   " + a);
    }
  }

  private static Writable read(Path file, String className, Configuration conf) throws IOException {
    Writable w;
    try {
      w = (Writable) ReflectionUtils.newInstance(conf.getClassByName(className), conf);
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    }
    try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
      w.readFields(in);
    }
    return w;
  }

  private static SequenceFile.Reader open(Configuration conf, Path file) throws IOException {
    return new SequenceFile.Reader(conf, SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())));
  }

  private static boolean sameBytes(Writable a, Writable b) throws IOException {
    DataOutputBuffer x = new DataOutputBuffer();
    DataOutputBuffer y = new DataOutputBuffer();
    a.write(x);
    b.write(y);
    return Arrays.equals(x.getData(), 0, x.getLength(), y.getData(), 0, y.getLength());
  }
}
