package io.vivace.task;

import io.vivace.counters.FileSystemBytes;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;

/**
 * The bookkeeping around a map's record reader, whichever API it has: input records, input bytes
 * (file system bytes read inside the reader's calls, as Hadoop counts them) and progress.
 */
final class InputTracker {

  /** A reader's own progress. */
  interface Progress {
    float get() throws Exception;
  }

  private final TaskReporter reporter;
  private final Counter inputRecords;
  private final Counter bytesRead;
  private final FileSystemBytes fileBytes;

  /** {@code fileBytes} measures the input's file system; null when the split is not a file's. */
  InputTracker(TaskReporter reporter, FileSystemBytes fileBytes) {
    this.reporter = reporter;
    this.inputRecords = reporter.frameworkCounter(TaskCounter.MAP_INPUT_RECORDS);
    this.bytesRead = reporter.frameworkCounter(FileInputFormatCounter.BYTES_READ);
    this.fileBytes = fileBytes;
  }

  /** Call before a reader call; pass the result to {@link #afterRead}. */
  long beforeRead() {
    return fileBytes == null ? 0 : fileBytes.read();
  }

  void afterRead(long before) {
    if (fileBytes != null) {
      bytesRead.increment(fileBytes.read() - before);
    }
  }

  /** Counts a record read; now and then samples the reader's progress. */
  void recordRead(Progress progress) throws Exception {
    inputRecords.increment(1);
    if ((inputRecords.getValue() & 0xFF) == 0) {
      reporter.setProgress(progress.get());
    }
  }
}
