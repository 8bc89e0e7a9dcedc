package io.vivace.segment;

import io.vivace.localdisk.LocalFileStatistics;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * The bytes {@code [offset, offset + length)} of a local file as a stream that ends where the range
 * ends; a file shorter than the range is an error. Unbuffered: every read is one positional read of
 * the file (through its channel, which reuses a cached native buffer).
 */
final class FileRange extends InputStream {

  private final FileChannel channel;
  private long position;
  private long remaining;

  FileRange(File path, long offset, long length) throws IOException {
    this.channel = FileChannel.open(path.toPath(), StandardOpenOption.READ);
    this.position = offset;
    this.remaining = length;
    LocalFileStatistics.opened();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (remaining <= 0) {
      return -1;
    }
    if (len == 0) {
      return 0;
    }
    int got = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, remaining)), position);
    if (got < 0) {
      // not an EOFException: codec streams take those for the end of their input
      throw new IOException("segment file is shorter than its index says");
    }
    position += got;
    remaining -= got;
    LocalFileStatistics.read(got);
    return got;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
