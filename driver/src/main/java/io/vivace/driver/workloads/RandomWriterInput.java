package io.vivace.driver.workloads;

import io.vivace.driver.OutputDigest;
import io.vivace.driver.WorkloadContext;
import java.util.Map;
import org.apache.hadoop.examples.RandomWriter;
import org.apache.hadoop.fs.Path;

/**
 * RandomWriter's random BytesWritable keys and values in SequenceFiles, one per map; the checksum
 * is the SHA-256 of the files' bytes.
 */
final class RandomWriterInput extends RandomWritersInput {

  RandomWriterInput(long bytes, int maps) {
    super("randomwriter", bytes, maps);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runWriter(ctx, dir, new RandomWriter(), RandomWriter.TOTAL_BYTES, RandomWriter.BYTES_PER_MAP,
        dir.toString());
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    return new Fingerprint(OutputDigest.ofBytes(dir.getFileSystem(ctx.conf()), dir), Map.of());
  }
}
