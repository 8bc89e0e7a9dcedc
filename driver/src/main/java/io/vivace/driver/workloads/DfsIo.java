package io.vivace.driver.workloads;

import io.vivace.driver.Param;
import io.vivace.driver.Phase;
import io.vivace.driver.RecordedJob;
import io.vivace.driver.UsageException;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.TestDFSIO;

/**
 * Running Apache's TestDFSIO: {@code files} files of {@code file_mb} MB under a base directory
 * ({@code test.build.data}), in which it keeps {@code io_control}, {@code io_data} (the files),
 * and {@code io_write} or {@code io_read} (its one reducer's statistics).
 */
final class DfsIo {

  static final List<Param> PARAMS = List.of(
      Param.integer("files", 2, 1, "", "files (one map each)"),
      Param.integer("file_mb", 8, 1, "MB", "MB per file"));
  static final long MB = 1024 * 1024;
  static final String BASE_DIR_KEY = "test.build.data";
  static final String DATA_DIR = "io_data";

  private DfsIo() {}

  /**
   * TestDFSIO resolves its base directory on the default file system ({@code FileSystem.get}), so
   * both roots must be on it.
   */
  static void checkRoots(Configuration conf, Path dataRoot, Path workRoot) throws UsageException {
    try {
      URI defaultFs = FileSystem.get(conf).getUri();
      for (Path root : List.of(dataRoot, workRoot)) {
        if (!root.getFileSystem(conf).getUri().equals(defaultFs)) {
          throw new UsageException("TestDFSIO works on the default file system (" + defaultFs
              + "): " + root + " is not on it; set fs.defaultFS or choose other roots");
        }
      }
    } catch (IOException e) {
      throw new UsageException("cannot reach the file systems of the roots: " + e.getMessage());
    }
  }

  /** {@code TestDFSIO -write} or {@code -read} under {@code base}; its result file is dropped. */
  static List<RecordedJob> run(WorkloadContext ctx, Phase phase, String mode, Path base, long files,
      long fileMb) throws Exception {
    java.nio.file.Path resultFile = Files.createTempFile("vivace-dfsio", ".log");
    try {
      return ctx.runTool(phase, "TestDFSIO " + mode, new TestDFSIO(),
          Map.of(BASE_DIR_KEY, base.toString()), mode, "-nrFiles", Long.toString(files),
          "-size", fileMb + "MB", "-resFile", resultFile.toString());
    } finally {
      Files.deleteIfExists(resultFile);
    }
  }

  /**
   * Checks TestDFSIO's statistics in {@code base/outputDir} (one task per file, every byte
   * processed) and puts its figures into the record's {@code results.dfsio}.
   */
  static Validation validate(WorkloadContext ctx, List<RecordedJob> jobs, Path base,
      String outputDir, long files, long fileMb, Long outputBytes) throws Exception {
    String what = "TestDFSIO " + ("io_write".equals(outputDir) ? "-write" : "-read");
    DfsIoStatistics statistics =
        DfsIoStatistics.read(base.getFileSystem(ctx.conf()), new Path(base, outputDir));
    ctx.putResult("dfsio", statistics.results(jobs.size() == 1 ? jobs.get(0) : null));
    long expectedBytes = files * fileMb * MB;
    if (statistics.tasks() != files) {
      return Validation.failed(what + ": " + statistics.tasks() + " files processed, expected "
          + files, null, outputBytes);
    }
    if (statistics.bytes() != expectedBytes) {
      return Validation.failed(what + ": " + statistics.bytes() + " bytes processed, expected "
          + files + " x " + fileMb + " MB = " + expectedBytes, null, outputBytes);
    }
    if (outputBytes != null && outputBytes != expectedBytes) {
      return Validation.failed(what + ": " + outputBytes + " bytes in " + DATA_DIR
          + ", expected " + expectedBytes, null, outputBytes);
    }
    return Validation.passed(what + ": " + files + " files, " + expectedBytes + " bytes", null,
        outputBytes);
  }
}
