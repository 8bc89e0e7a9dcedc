package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.RecordedJob;
import io.vivace.driver.UsageException;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * {@code TestDFSIO -write} of {@code files} files of {@code file_mb} MB under the work root; the
 * files written must hold exactly that many bytes. Its figures go to {@code results.dfsio}.
 */
final class DfsIoWriteWorkload extends ParamsWorkload {

  static final String NAME = "dfsio-write";
  static final String DESCRIPTION = "TestDFSIO -write";

  private Path base;
  private List<RecordedJob> jobs = List.of();

  DfsIoWriteWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public void checkRoots(Configuration conf, Path dataRoot, Path workRoot) throws UsageException {
    DfsIo.checkRoots(conf, dataRoot, workRoot);
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    base = ctx.workPath("dfsio");
    jobs = DfsIo.run(ctx, Phase.RUN, "-write", base, params.get("files"), params.get("file_mb"));
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    long written = DataFiles.bytes(base.getFileSystem(ctx.conf()), new Path(base, DfsIo.DATA_DIR));
    return DfsIo.validate(ctx, jobs, base, "io_write", params.get("files"),
        params.get("file_mb"), written);
  }
}
