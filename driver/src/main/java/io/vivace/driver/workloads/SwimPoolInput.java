package io.vivace.driver.workloads;

import io.vivace.driver.InputData;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.swim.PartitionPoolWriter;
import io.vivace.workloads.swim.PoolLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * The SWIM replay's input pool ({@link PoolLayout}), written by the driver itself (no job) and
 * reused by every replay with the same block size, partition count and seed.
 */
final class SwimPoolInput implements InputData {

  private final PoolLayout pool;
  private final long seed;

  SwimPoolInput(PoolLayout pool, long seed) {
    this.pool = pool;
    this.seed = seed;
  }

  @Override
  public String key() {
    return "swim-pool-block=" + pool.blockSize() + "-partitions=" + pool.partitions() + "-seed="
        + seed;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("block_size", Long.toString(pool.blockSize()));
    params.put("pool_partitions", Integer.toString(pool.partitions()));
    params.put("seed", Long.toString(seed));
    return params;
  }

  /** The records' key and value bytes. */
  @Override
  public long requestedBytes() {
    return pool.partitions() * pool.usableBytes();
  }

  /** The files hold the records with SequenceFile framing, each file within one block. */
  @Override
  public String sizeMismatch(long actualBytes) {
    long most = pool.partitions() * pool.blockSize();
    if (actualBytes < requestedBytes() || actualBytes > most) {
      return actualBytes + " bytes, expected between the records' " + requestedBytes()
          + " and one block a partition, " + most;
    }
    return null;
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.progress("prepare: writing " + pool.partitions() + " partitions of "
        + pool.recordsPerPartition() + " records into " + dir);
    PartitionPoolWriter.write(ctx.conf(), dir, pool, seed);
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) {
    return new Fingerprint(null, Map.of("records_per_partition", pool.recordsPerPartition()));
  }
}
