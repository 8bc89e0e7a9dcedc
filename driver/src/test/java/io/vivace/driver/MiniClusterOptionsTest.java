package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The mini-cluster's command line: its shape, and the Tez configuration's place. */
class MiniClusterOptionsTest {

  @Test
  void nodesDefaultToOneEachAndTakeTheCountsGiven() throws Exception {
    MiniClusterOptions one = MiniClusterOptions.parse(new String[] {"--dir", "d", "--conf-out", "c.xml"});
    assertEquals(1, one.nodeManagers());
    assertEquals(1, one.dataNodes());
    MiniClusterOptions three = MiniClusterOptions.parse(new String[] {"--dir", "d", "--conf-out",
        "c.xml", "--nodemanagers", "3", "--datanodes", "2", "--nm-memory-mb", "4096"});
    assertEquals(3, three.nodeManagers());
    assertEquals(2, three.dataNodes());
    assertEquals(4096, three.nodeManagerMemoryMb());
  }

  @Test
  void aClusterWithoutNodesIsRefusedNamingTheOption() {
    UsageException e = assertThrows(UsageException.class, () -> MiniClusterOptions.parse(
        new String[] {"--dir", "d", "--conf-out", "c.xml", "--datanodes", "0"}));
    assertEquals("--datanodes needs a positive integer, not '0'", e.getMessage());
  }

  @Test
  void theTezConfigurationGoesBesideTheClientConfiguration() {
    Path conf = Paths.get("/tmp/lab/client-conf.xml");
    assertEquals(Paths.get("/tmp/lab/client-conf-tez.xml"), MiniCluster.tezConfFile(conf));
    assertEquals(Paths.get("/tmp/lab/conf-tez"), MiniCluster.tezConfFile(Paths.get("/tmp/lab/conf")));
  }
}
