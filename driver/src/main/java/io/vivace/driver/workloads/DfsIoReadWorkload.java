package io.vivace.driver.workloads;

import io.vivace.driver.InputData;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.PhaseFailedException;
import io.vivace.driver.RecordedJob;
import io.vivace.driver.UsageException;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code TestDFSIO -read} of {@code files} files of {@code file_mb} MB, written once under the
 * data root ({@link DfsIoInput}). TestDFSIO reads its files from {@code io_data} of the base
 * directory it also writes to, so for the run the driver moves the data's {@code io_data} into the
 * base directory under the work root and moves it back afterwards (a rename on the same file
 * system; should the driver die in between, the data's marker no longer matches and the next run
 * generates it again).
 */
final class DfsIoReadWorkload extends ParamsWorkload {

  static final String NAME = "dfsio-read";
  static final String DESCRIPTION = "TestDFSIO -read of files a -write made";

  private Path base;
  private List<RecordedJob> jobs = List.of();

  DfsIoReadWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return new DfsIoInput(params.get("files"), params.get("file_mb"));
  }

  @Override
  public void checkRoots(Configuration conf, Path dataRoot, Path workRoot) throws UsageException {
    DfsIo.checkRoots(conf, dataRoot, workRoot);
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    base = ctx.workPath("dfsio");
    FileSystem fs = base.getFileSystem(ctx.conf());
    Path data = new Path(ctx.data().path(), DfsIo.DATA_DIR);
    Path lent = new Path(base, DfsIo.DATA_DIR);
    fs.mkdirs(base);
    if (!fs.rename(data, lent)) {
      throw new PhaseFailedException("could not move " + data + " to " + lent);
    }
    try {
      jobs = DfsIo.run(ctx, Phase.RUN, "-read", base, params.get("files"), params.get("file_mb"));
    } finally {
      if (!fs.rename(lent, data)) {
        ctx.progress("could not move " + lent + " back to " + data
            + "; the next run will generate the data again");
      }
    }
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    return DfsIo.validate(ctx, jobs, base, "io_read", params.get("files"), params.get("file_mb"),
        null);
  }
}
