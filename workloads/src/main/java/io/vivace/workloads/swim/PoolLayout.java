package io.vivace.workloads.swim;

/**
 * The shape of the input pool: {@code partitions} SequenceFiles of random BytesWritable records
 * (10-byte key, 90-byte value), each at most {@code blockSize} bytes on the file system so that
 * it is one block and one split.
 *
 * <p>An uncompressed SequenceFile record of BytesWritable key and value takes 116 bytes: record
 * and key lengths (4 + 4), the key with its own 4-byte length (14), the value with its length
 * (94). Every ~100 KB the writer adds a 20-byte sync marker (0.023 bytes a record), and the header
 * (class names, flags, sync) is under 200 bytes; 117 bytes a record and 4 KiB for the header keep
 * every file within the block. The usable bytes of a partition are its records' key and value
 * bytes, 100 a record: the unit in which trace input sizes are served.
 */
public record PoolLayout(int partitions, long blockSize) {

  public static final int KEY_BYTES = 10;
  public static final int VALUE_BYTES = 90;
  public static final int RECORD_BYTES = KEY_BYTES + VALUE_BYTES;
  static final int FILE_BYTES_PER_RECORD = 117;
  static final int HEADER_ALLOWANCE = 4096;
  /** The smallest block that holds a header and a few hundred records. */
  public static final long MIN_BLOCK_SIZE = 64 * 1024;

  public PoolLayout {
    if (partitions < 1) {
      throw new IllegalArgumentException("the pool needs at least 1 partition, not " + partitions);
    }
    if (blockSize < MIN_BLOCK_SIZE) {
      throw new IllegalArgumentException("block size " + blockSize + " is below " + MIN_BLOCK_SIZE);
    }
  }

  /** Records in each partition. */
  public long recordsPerPartition() {
    return (blockSize - HEADER_ALLOWANCE) / FILE_BYTES_PER_RECORD;
  }

  /** Key and value bytes of one partition: the input one partition serves. */
  public long usableBytes() {
    return recordsPerPartition() * RECORD_BYTES;
  }

  /** The partition file's name, {@code part-00042}. */
  public static String fileName(int partition) {
    return String.format("part-%05d", partition);
  }
}
