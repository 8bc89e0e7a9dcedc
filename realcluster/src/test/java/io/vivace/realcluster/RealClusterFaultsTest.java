package io.vivace.realcluster;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * MapReduce on YARN's own recovery from a worker lost in the middle of a TeraSort
 * ({@link WorkerFaults}), the reference for the session's, which {@link RealClusterTest} makes on
 * the full suite's cluster: minutes of the peer's waiting (the lost NodeManager's expiry, then its
 * reruns), so in the {@code faults} tier, on a cluster of its own (a master and three workers,
 * 1 Gbit/s links, every block on every worker). Skipped where network namespaces cannot be made.
 */
@Tag("slow")
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealClusterFaultsTest {

  private final Path target = Path.of("target").toAbsolutePath();
  private final Path dir = target.resolve("real-cluster-faults");
  private final Path work = target.resolve("real-cluster-faults-work");
  private final ClusterClient client = new ClusterClient(dir, work);
  private WorkerFaults faults;

  @BeforeAll
  void up() throws Exception {
    faults = new WorkerFaults(client, dir, work, client.upAfresh(3, "1gbit"));
  }

  @AfterAll
  void down() throws Exception {
    client.down();
  }

  @Test
  void aWorkerLostInTheMiddleOfAMapReduceJob() throws Exception {
    faults.loseAWorkerDuring(Engine.MAPREDUCE);
  }
}
