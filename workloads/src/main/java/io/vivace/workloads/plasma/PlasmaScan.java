package io.vivace.workloads.plasma;

import io.vivace.workloads.PartFiles;
import java.io.IOException;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.util.LineReader;

/**
 * One pass over a directory of Plasma lines, data files in name (= partition) order: the number of
 * lines, an order-independent checksum (the sum of the lines' CRC32s, as TeraSum does), how many
 * are malformed, and the first place where a line sorts before the one read just before it.
 */
public record PlasmaScan(long lines, long checksum, long malformed, String misorder) {

  public static PlasmaScan of(FileSystem fs, Path dir) throws IOException {
    long lines = 0;
    long checksum = 0;
    long malformed = 0;
    String misorder = null;
    CRC32 crc = new CRC32();
    Text previous = new Text();
    Text line = new Text();
    for (Path file : PartFiles.of(fs, dir)) {
      try (FSDataInputStream in = fs.open(file)) {
        LineReader reader = new LineReader(in);
        while (reader.readLine(line) > 0) {
          crc.reset();
          crc.update(line.getBytes(), 0, line.getLength());
          checksum += crc.getValue();
          if (PlasmaLine.problem(line) != null) {
            malformed++;
          }
          if (misorder == null && lines > 0 && line.compareTo(previous) < 0) {
            misorder = file.getName() + " line " + lines + " sorts before the line above it";
          }
          previous.set(line);
          lines++;
        }
      }
    }
    return new PlasmaScan(lines, checksum, malformed, misorder);
  }
}
