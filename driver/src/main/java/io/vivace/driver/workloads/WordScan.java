package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.OutputDigest;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One pass over text files in name order: their SHA-256 and the number of words in them as
 * WordCount's mapper counts them (StringTokenizer's default delimiters: space, tab, newline,
 * carriage return, form feed; all ASCII, so bytes can be scanned without decoding UTF-8).
 */
record WordScan(String sha256, long words) {

  private static final int BUFFER_BYTES = 1 << 16;

  static WordScan of(FileSystem fs, Path dir) throws IOException {
    MessageDigest digest = OutputDigest.sha256();
    byte[] buffer = new byte[BUFFER_BYTES];
    long words = 0;
    for (Path file : DataFiles.paths(fs, dir)) {
      boolean inWord = false;
      try (InputStream in = fs.open(file)) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          digest.update(buffer, 0, n);
          for (int i = 0; i < n; i++) {
            boolean delimiter = isDelimiter(buffer[i]);
            if (!delimiter && !inWord) {
              words++;
            }
            inWord = !delimiter;
          }
        }
      }
    }
    return new WordScan(OutputDigest.format(digest), words);
  }

  private static boolean isDelimiter(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
  }
}
