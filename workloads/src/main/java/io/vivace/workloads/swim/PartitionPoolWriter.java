package io.vivace.workloads.swim;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;

/**
 * Writes the input pool: {@link PoolLayout#partitions()} SequenceFiles of
 * {@link PoolLayout#recordsPerPartition()} random records each, partition {@code i} from a stream
 * seeded with the seed and {@code i}. Each file is checked to fit one block.
 */
public final class PartitionPoolWriter {

  private PartitionPoolWriter() {}

  public static void write(Configuration conf, Path dir, PoolLayout pool, long seed)
      throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    for (int partition = 0; partition < pool.partitions(); partition++) {
      Path file = new Path(dir, PoolLayout.fileName(partition));
      RandomRecords records = new RandomRecords(Seeds.of(seed, partition, Seeds.POOL));
      try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
          SequenceFile.Writer.file(file), SequenceFile.Writer.keyClass(BytesWritable.class),
          SequenceFile.Writer.valueClass(BytesWritable.class),
          SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE))) {
        for (long r = pool.recordsPerPartition(); r > 0; r--) {
          records.next();
          writer.append(records.key, records.value);
        }
      }
      long length = fs.getFileStatus(file).getLen();
      if (length > pool.blockSize()) {
        throw new IOException(file + " holds " + length + " bytes, more than the block size "
            + pool.blockSize());
      }
    }
  }
}
