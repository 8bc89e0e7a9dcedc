package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;

/**
 * Holds the mini-cluster's DataNodes (which run in this JVM) on the first read of one block, until
 * released: the task reading that block stays in the middle of its input, so that a test can break
 * something while the job is surely running. It uses HDFS's own fault-injection hook, which a
 * DataNode calls as it opens a block to send; the DataNode's thread is named after the block.
 */
final class BlockReadGate extends DataNodeFaultInjector implements AutoCloseable {

  private final String block;
  private final DataNodeFaultInjector previous;
  private final AtomicBoolean held = new AtomicBoolean();
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);

  private BlockReadGate(String blockName, DataNodeFaultInjector previous) {
    this.block = ":" + blockName + "_"; // as in "Sending block BP-...:blk_1073741825_1001"
    this.previous = previous;
  }

  /** A gate on the (one) block of {@code file}, in place until closed. */
  static BlockReadGate holdFirstReadOf(DistributedFileSystem dfs, Path file) throws IOException {
    LocatedBlocks blocks = dfs.getClient().getLocatedBlocks(dfs.makeQualified(file).toUri().getPath(), 0);
    assertEquals(1, blocks.locatedBlockCount(), file + ": blocks");
    BlockReadGate gate = new BlockReadGate(blocks.get(0).getBlock().getBlockName(), DataNodeFaultInjector.get());
    DataNodeFaultInjector.set(gate);
    return gate;
  }

  @Override
  public void throwTooManyOpenFiles() {
    String thread = Thread.currentThread().getName();
    if (thread.contains("Sending block") && thread.contains(block) && held.compareAndSet(false, true)) {
      reached.countDown();
      try {
        released.await(5, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits until a reader of the block is held. */
  void awaitReader() throws InterruptedException {
    assertTrue(reached.await(3, TimeUnit.MINUTES), "no task read" + block + " (the gated block)");
  }

  /** Lets the held read (and any later one) go on. */
  void release() {
    released.countDown();
  }

  @Override
  public void close() {
    release();
    DataNodeFaultInjector.set(previous);
  }
}
