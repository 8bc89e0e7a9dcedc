package io.vivace.driver.workloads;

import io.vivace.driver.PhaseFailedException;
import io.vivace.driver.RecordedJob;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What TestDFSIO's reducer wrote ({@code part-00000} of {@code io_write} or {@code io_read}): one
 * line per statistic, {@code l:tasks}, {@code l:size} (bytes), {@code l:time} (ms, summed over the
 * maps), {@code f:rate} (the sum over files of each file's MB/s times 1000) and {@code f:sqrate}
 * (the same for the squares). The figures are TestDFSIO's own, computed as its analyzeResult
 * does.
 */
record DfsIoStatistics(long tasks, long bytes, long taskTimeMs, double rate, double squaredRate) {

  static DfsIoStatistics read(FileSystem fs, Path outputDir)
      throws IOException, PhaseFailedException {
    Long tasks = null;
    Long bytes = null;
    Long time = null;
    Double rate = null;
    Double squaredRate = null;
    List<String> lines = TextParts.lines(fs, outputDir);
    for (String line : lines) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length != 2) {
        continue;
      }
      switch (fields[0]) {
        case "l:tasks" -> tasks = Long.parseLong(fields[1]);
        case "l:size" -> bytes = Long.parseLong(fields[1]);
        case "l:time" -> time = Long.parseLong(fields[1]);
        case "f:rate" -> rate = Double.parseDouble(fields[1]);
        case "f:sqrate" -> squaredRate = Double.parseDouble(fields[1]);
        default -> { }
      }
    }
    if (tasks == null || bytes == null || time == null || rate == null || squaredRate == null) {
      throw new PhaseFailedException("TestDFSIO's statistics in " + outputDir + " are incomplete: "
          + lines);
    }
    return new DfsIoStatistics(tasks, bytes, time, rate, squaredRate);
  }

  /**
   * The record's {@code results.dfsio}: throughput = bytes / summed task time, average IO rate =
   * mean of the files' rates, its standard deviation, and aggregate bandwidth = bytes / the job's
   * wall time (client: submission to completion seen). Values that cannot be computed are null.
   */
  Map<String, Object> results(RecordedJob job) {
    double mb = (double) bytes / DfsIo.MB;
    double averageRate = rate / 1000 / tasks;
    Long wallMs = job == null || job.doneMs() == null ? null : job.doneMs() - job.submitMs();
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("files", tasks);
    results.put("bytes", bytes);
    results.put("task_time_ms", taskTimeMs);
    results.put("throughput_mb_s",
        finite(taskTimeMs > 0 ? mb / (taskTimeMs / 1000.0) : Double.NaN));
    results.put("avg_io_rate_mb_s", finite(averageRate));
    results.put("io_rate_std_dev_mb_s",
        finite(Math.sqrt(Math.abs(squaredRate / 1000 / tasks - averageRate * averageRate))));
    results.put("job_wall_ms", wallMs);
    results.put("aggregate_bandwidth_mb_s",
        finite(wallMs != null && wallMs > 0 ? mb / (wallMs / 1000.0) : Double.NaN));
    return results;
  }

  /** A file done in under a millisecond has an infinite rate; JSON has no such number. */
  private static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
