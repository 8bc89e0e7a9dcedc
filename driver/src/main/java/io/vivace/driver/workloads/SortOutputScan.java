package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.OutputDigest;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * One pass over Sort's SequenceFile output, part files in order: the SHA-256 of the records (each
 * key and value serialised, preceded by its length; the files' own bytes would differ between
 * runs writing the same records, since every file's sync marker is random), and whether each part
 * is in key order. SortValidator's own order check compares a key object with itself (the old
 * API reuses it), so the driver checks the order here.
 */
record SortOutputScan(String digest, long records, String misorder) {

  static SortOutputScan of(Configuration conf, Path dir) throws IOException {
    MessageDigest digest = OutputDigest.sha256();
    DataOutputBuffer record = new DataOutputBuffer();
    DataOutputBuffer keyBytes = new DataOutputBuffer();
    long records = 0;
    String misorder = null;
    FileSystem fs = dir.getFileSystem(conf);
    for (Path file : DataFiles.paths(fs, dir)) {
      try (SequenceFile.Reader reader =
          new SequenceFile.Reader(conf, SequenceFile.Reader.file(file))) {
        Writable key = (Writable) ReflectionUtils.newInstance(reader.getKeyClass(), conf);
        Writable value = (Writable) ReflectionUtils.newInstance(reader.getValueClass(), conf);
        WritableComparator order = WritableComparator.get(
            reader.getKeyClass().asSubclass(WritableComparable.class), conf);
        byte[] previous = null;
        while (reader.next(key, value)) {
          records++;
          keyBytes.reset();
          key.write(keyBytes);
          if (misorder == null && previous != null && order.compare(previous, 0, previous.length,
              keyBytes.getData(), 0, keyBytes.getLength()) > 0) {
            misorder = file.getName() + ": record " + records + " is smaller than the one before";
          }
          previous = Arrays.copyOf(keyBytes.getData(), keyBytes.getLength());
          update(digest, record, key);
          update(digest, record, value);
        }
      }
    }
    return new SortOutputScan(OutputDigest.format(digest), records, misorder);
  }

  private static void update(MessageDigest digest, DataOutputBuffer buffer, Writable writable)
      throws IOException {
    buffer.reset();
    writable.write(buffer);
    int length = buffer.getLength();
    digest.update(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
        (byte) length});
    digest.update(buffer.getData(), 0, length);
  }
}
