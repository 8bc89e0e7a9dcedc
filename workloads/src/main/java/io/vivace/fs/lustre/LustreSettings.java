package io.vivace.fs.lustre;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * The {@code lustre://} file system's configuration: the mount's root directory, the stripe
 * layout to give new files, the block size splits are planned with and where {@code lfs} is.
 */
public record LustreSettings(Path root, int stripeCount, long stripeSize, boolean stripeRequired,
    long blockSize, String lfs) {

  public static final String ROOT = "fs.lustre.root";
  public static final String STRIPE_COUNT = "fs.lustre.stripe.count";
  public static final String STRIPE_SIZE = "fs.lustre.stripe.size";
  public static final String STRIPE_REQUIRED = "fs.lustre.stripe.required";
  public static final String BLOCK_SIZE = "fs.lustre.block.size";
  public static final String LFS = "fs.lustre.lfs";
  static final long DEFAULT_BLOCK_SIZE = 128L << 20;

  /** Reads and checks the settings; the error names the key and what is wrong with its value. */
  public static LustreSettings of(Configuration conf) throws IOException {
    String root = conf.getTrimmed(ROOT);
    if (root == null || root.isEmpty()) {
      throw new IOException(ROOT + " is not set: the lustre:// file system needs the directory"
          + " of the shared POSIX mount its paths resolve under");
    }
    Path dir = Path.of(root);
    if (!dir.isAbsolute()) {
      throw new IOException(ROOT + "=" + root + ": not an absolute path");
    }
    if (!Files.isDirectory(dir)) {
      throw new IOException(ROOT + "=" + root + ": no such directory (is the file system mounted?)");
    }
    int count = conf.getInt(STRIPE_COUNT, 0);
    long size = conf.getLongBytes(STRIPE_SIZE, 0);
    if (count < -1 || size < 0) {
      throw new IOException(STRIPE_COUNT + "=" + count + ", " + STRIPE_SIZE + "=" + size
          + ": a stripe count is -1 (all targets) or more, a stripe size 0 (default) or more");
    }
    long blockSize = conf.getLongBytes(BLOCK_SIZE,
        size > 0 && count > 0 ? size * count : DEFAULT_BLOCK_SIZE);
    if (blockSize <= 0) {
      throw new IOException(BLOCK_SIZE + "=" + blockSize + ": must be positive");
    }
    return new LustreSettings(dir.toRealPath(), count, size, conf.getBoolean(STRIPE_REQUIRED, false),
        blockSize, conf.getTrimmed(LFS, "lfs"));
  }

  /** Whether new files should get a stripe layout (a count or a size configured). */
  public boolean stripeRequested() {
    return stripeCount != 0 || stripeSize > 0;
  }
}
