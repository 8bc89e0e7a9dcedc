package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Reading and comparing SequenceFiles.
 *
 * <p>Two SequenceFiles with the same records are not byte-identical: every writer draws a random
 * 16-byte sync marker (MD5 of a UID and the time), writes it at the end of the header and repeats it
 * every {@link SequenceFile#SYNC_INTERVAL} bytes. So "byte-for-byte" here means: the same records with the same raw key and
 * value bytes in the same order, and the same file bytes once each file's own sync marker is masked.
 */
public final class SeqFiles {

  /** Length of a SequenceFile sync marker (SequenceFile.SYNC_HASH_SIZE, private there). */
  private static final int SYNC_HASH_SIZE = 16;

  private SeqFiles() {}

  /** What a file holds. Key and value sizes are payload sizes (BytesWritable/Text length). */
  public record Summary(String keyClass, String valueClass, long records, long keyBytes,
      long valueBytes, long minKey, long maxKey, long minValue, long maxValue) {
    public long payloadBytes() {
      return keyBytes + valueBytes;
    }
  }

  /** Visits every record of a file. */
  public interface Visitor {
    void record(Writable key, Writable value) throws IOException;
  }

  private static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    return conf;
  }

  private static SequenceFile.Reader open(Path file) throws IOException {
    return new SequenceFile.Reader(conf(),
        SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(file.toUri())));
  }

  public static void forEach(Path file, Visitor visitor) throws IOException {
    Configuration conf = conf();
    try (SequenceFile.Reader r = open(file)) {
      Writable key = (Writable) ReflectionUtils.newInstance(r.getKeyClass(), conf);
      Writable value = (Writable) ReflectionUtils.newInstance(r.getValueClass(), conf);
      while (r.next(key, value)) {
        visitor.record(key, value);
      }
    }
  }

  public static Summary summarize(Path file) throws IOException {
    String keyClass;
    String valueClass;
    try (SequenceFile.Reader r = open(file)) {
      keyClass = r.getKeyClassName();
      valueClass = r.getValueClassName();
    }
    long[] s = {0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
    forEach(file, (k, v) -> {
      long kl = payloadLength(k);
      long vl = payloadLength(v);
      s[0]++;
      s[1] += kl;
      s[2] += vl;
      s[3] = Math.min(s[3], kl);
      s[4] = Math.max(s[4], kl);
      s[5] = Math.min(s[5], vl);
      s[6] = Math.max(s[6], vl);
    });
    return new Summary(keyClass, valueClass, s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
  }

  public static long countRecords(List<Path> files) throws IOException {
    long n = 0;
    for (Path f : files) {
      n += summarize(f).records();
    }
    return n;
  }

  private static long payloadLength(Writable w) throws IOException {
    if (w instanceof BytesWritable b) {
      return b.getLength();
    }
    if (w instanceof Text t) {
      return t.getLength();
    }
    DataOutputBuffer out = new DataOutputBuffer();
    w.write(out);
    return out.getLength();
  }

  /** Keys are non-decreasing under the key class's registered raw comparator. */
  public static void assertSorted(Path file, String what) throws IOException {
    try (SequenceFile.Reader r = open(file)) {
      WritableComparator cmp =
          WritableComparator.get(r.getKeyClass().asSubclass(WritableComparable.class), conf());
      SequenceFile.ValueBytes vb = r.createValueBytes();
      DataOutputBuffer prev = new DataOutputBuffer();
      DataOutputBuffer cur = new DataOutputBuffer();
      long i = 0;
      boolean first = true;
      while (r.nextRaw(cur, vb) >= 0) {
        if (!first && cmp.compare(prev.getData(), 0, prev.getLength(), cur.getData(), 0,
            cur.getLength()) > 0) {
          fail(what + ": " + file.getFileName() + " is not sorted at record " + i);
        }
        first = false;
        DataOutputBuffer t = prev;
        prev = cur;
        cur = t;
        cur.reset();
        i++;
      }
    }
  }

  /**
   * The visible files of both directories have the same names, and each pair holds the same
   * records (raw bytes) and the same bytes apart from the sync markers.
   */
  public static void assertSameSequenceFiles(Path expectedDir, Path actualDir, String what)
      throws IOException {
    List<Path> expected = OutputDirs.visibleFiles(expectedDir);
    List<Path> actual = OutputDirs.visibleFiles(actualDir);
    assertEquals(OutputDirs.names(expected), OutputDirs.names(actual),
        what + ": output file names differ between " + expectedDir + " and " + actualDir);
    assertTrue(!expected.isEmpty(), what + ": no output files in " + expectedDir);
    for (int i = 0; i < expected.size(); i++) {
      assertSameSequenceFile(expected.get(i), actual.get(i), what);
    }
  }

  public static void assertSameSequenceFile(Path expected, Path actual, String what)
      throws IOException {
    String name = what + ": " + expected.getFileName();
    long records = assertSameRecords(expected, actual, name);
    byte[] e = Files.readAllBytes(expected);
    byte[] a = Files.readAllBytes(actual);
    mask(e, syncMarker(expected));
    mask(a, syncMarker(actual));
    int n = Math.min(e.length, a.length);
    for (int i = 0; i < n; i++) {
      if (e[i] != a[i]) {
        fail(String.format("%s: same %d records, but the files differ (sync markers masked) at byte"
            + " offset %d: expected 0x%02x, actual 0x%02x", name, records, i, e[i] & 0xff,
            a[i] & 0xff));
      }
    }
    assertEquals(e.length, a.length,
        name + ": same " + records + " records but different file lengths");
  }

  /** Same records with the same raw key and value bytes, in the same order; returns the count. */
  private static long assertSameRecords(Path expected, Path actual, String name)
      throws IOException {
    try (SequenceFile.Reader re = open(expected); SequenceFile.Reader ra = open(actual)) {
      assertEquals(re.getKeyClassName(), ra.getKeyClassName(), name + ": key class");
      assertEquals(re.getValueClassName(), ra.getValueClassName(), name + ": value class");
      assertEquals(re.isCompressed(), ra.isCompressed(), name + ": record compression");
      assertEquals(re.isBlockCompressed(), ra.isBlockCompressed(), name + ": block compression");
      DataOutputBuffer ke = new DataOutputBuffer();
      DataOutputBuffer ka = new DataOutputBuffer();
      DataOutputBuffer ve = new DataOutputBuffer();
      DataOutputBuffer va = new DataOutputBuffer();
      SequenceFile.ValueBytes vbe = re.createValueBytes();
      SequenceFile.ValueBytes vba = ra.createValueBytes();
      long i = 0;
      while (true) {
        ke.reset();
        ka.reset();
        int le = re.nextRaw(ke, vbe);
        int la = ra.nextRaw(ka, vba);
        if (le < 0 || la < 0) {
          if (le != la) {
            fail(name + ": " + (le < 0 ? "expected" : "actual") + " ends after " + i
                + " records, the other has more");
          }
          return i;
        }
        ve.reset();
        va.reset();
        vbe.writeUncompressedBytes(ve);
        vba.writeUncompressedBytes(va);
        if (!Arrays.equals(ke.getData(), 0, ke.getLength(), ka.getData(), 0, ka.getLength())) {
          fail(name + ": record " + i + " has a different key");
        }
        if (!Arrays.equals(ve.getData(), 0, ve.getLength(), va.getData(), 0, va.getLength())) {
          fail(name + ": record " + i + " has a different value");
        }
        i++;
      }
    }
  }

  /** The file's sync marker: the last 16 bytes of its header. */
  private static byte[] syncMarker(Path file) throws IOException {
    long headerEnd;
    try (SequenceFile.Reader r = open(file)) {
      headerEnd = r.getPosition();
    }
    byte[] all = Files.readAllBytes(file);
    return Arrays.copyOfRange(all, (int) headerEnd - SYNC_HASH_SIZE, (int) headerEnd);
  }

  private static void mask(byte[] data, byte[] marker) {
    outer:
    for (int i = 0; i + marker.length <= data.length; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (data[i + j] != marker[j]) {
          continue outer;
        }
      }
      Arrays.fill(data, i, i + marker.length, (byte) 0);
      i += marker.length - 1;
    }
  }
}
