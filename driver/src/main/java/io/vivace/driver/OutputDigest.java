package io.vivace.driver;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Digests of a directory's data files ({@link DataFiles}) taken in name order, which for job
 * output is partition order: equal across engines whenever their output is, as {@code
 * sha256:<hex>}.
 */
public final class OutputDigest {

  private static final int BUFFER_BYTES = 1 << 16;

  private OutputDigest() {}

  /** SHA-256 of the files' bytes, one after the other. */
  public static String ofBytes(FileSystem fs, Path dir) throws IOException {
    MessageDigest digest = sha256();
    byte[] buffer = new byte[BUFFER_BYTES];
    for (Path file : DataFiles.paths(fs, dir)) {
      try (InputStream in = fs.open(file)) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          digest.update(buffer, 0, n);
        }
      }
    }
    return format(digest);
  }

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }

  public static String format(MessageDigest digest) {
    return "sha256:" + HexFormat.of().formatHex(digest.digest());
  }
}
