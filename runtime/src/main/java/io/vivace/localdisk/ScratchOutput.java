package io.vivace.localdisk;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new spill, merge or map output file in a {@link ScratchDir}, unbuffered. When a write fails
 * (the disk is full, or failing) the file moves to another of the job's local folders that has room:
 * what it holds so far is copied there, the failed write is done again, and writing goes on there.
 * Nothing reads or references the file before it is complete, so no data is lost. When no folder
 * can take it, the error names each folder, its free space and the bytes the file needs.
 */
public final class ScratchOutput extends OutputStream {

  private static final Logger LOG = LoggerFactory.getLogger(ScratchOutput.class);
  private static final int COPY_BUFFER = 64 * 1024;

  private final ScratchDir dir;
  private final String name;
  private final long expected;
  private int disk;
  private File file;
  private FileOutputStream out;
  private long written;
  /** Per disk, what went wrong there for this file; null until something did. */
  private String[] problems;
  private boolean[] tried;

  ScratchOutput(ScratchDir dir, String name, long expected) throws IOException {
    this.dir = dir;
    this.name = name;
    this.expected = expected;
    LocalDirs dirs = dir.dirs();
    int first = dirs.choose(expected, null);
    if (first < 0) {
      throw dirs.noRoom(dir.path(name), expected, 0, new String[dirs.count()], null);
    }
    File target = null;
    try {
      target = new File(dir.folder(first), name);
      out = new FileOutputStream(target);
      file = target;
      disk = first;
    } catch (IOException e) {
      moveAfter(e, first, null, 0, 0);
    }
  }

  /** The file as it is now: another one after a move. */
  public File file() {
    return file;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      moveAfter(e, disk, b, off, len);
    }
    written += len;
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }

  /**
   * Opening the file, or writing {@code b[off, off + len)} to it, failed on {@code failedDisk}:
   * continues on another disk, with the bytes written so far, or throws when none can take it.
   */
  private void moveAfter(IOException failure, int failedDisk, byte[] b, int off, int len) throws IOException {
    if (failure instanceof InterruptedIOException) {
      throw failure;
    }
    LocalDirs dirs = dir.dirs();
    if (problems == null) {
      problems = new String[dirs.count()];
      tried = new boolean[dirs.count()];
    }
    dirs.writeFailed(failedDisk, failure, len);
    while (true) {
      problems[failedDisk] = String.valueOf(failure.getMessage());
      tried[failedDisk] = true;
      int next = dirs.choose(Math.max(expected, written + len), tried);
      if (next < 0) {
        throw dirs.noRoom(dir.path(name), expected, written + len, problems, failure);
      }
      File moved = null;
      FileOutputStream movedOut = null;
      try {
        moved = new File(dir.folder(next), name);
        movedOut = new FileOutputStream(moved);
        copyWrittenTo(movedOut, failure);
        if (len > 0) {
          movedOut.write(b, off, len);
        }
      } catch (ReadBackFailed e) {
        closeQuietly(movedOut);
        moved.delete();
        throw e;
      } catch (IOException e) {
        dirs.writeFailed(next, e, Math.max(len, COPY_BUFFER)); // before its bytes go
        closeQuietly(movedOut);
        if (moved != null) {
          moved.delete();
        }
        failure = e;
        failedDisk = next;
        continue;
      }
      LOG.warn("Moved {} ({} bytes so far) from {} to {}: {}", dir.path(name), written,
          dirs.dir(failedDisk), dirs.dir(next), problems[failedDisk]);
      if (out != null) {
        closeQuietly(out);
        file.delete();
      }
      disk = next;
      file = moved;
      out = movedOut;
      return;
    }
  }

  private void copyWrittenTo(OutputStream target, IOException failure) throws IOException {
    if (written == 0) {
      return;
    }
    byte[] buffer = new byte[COPY_BUFFER];
    InputStream in;
    try {
      in = new FileInputStream(file);
    } catch (IOException e) {
      throw new ReadBackFailed(file, e, failure);
    }
    try (in) {
      long left = written;
      while (left > 0) {
        int n;
        try {
          n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        } catch (IOException e) {
          throw new ReadBackFailed(file, e, failure);
        }
        if (n < 0) {
          throw new ReadBackFailed(file, new IOException("it is shorter than what was written to it"), failure);
        }
        target.write(buffer, 0, n);
        left -= n;
      }
    }
    LocalFileStatistics.read(written);
    LocalFileStatistics.written(written);
  }

  private static void closeQuietly(OutputStream s) {
    if (s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // the file is given up
      }
    }
  }

  /** What the file held could not be read back to move it: the write's own failure stands. */
  private static final class ReadBackFailed extends IOException {
    ReadBackFailed(File file, IOException cause, IOException failure) {
      super("cannot move " + file + " to another local folder after \"" + failure.getMessage()
          + "\": reading it back failed: " + cause.getMessage(), failure);
      addSuppressed(cause);
    }
  }
}
