package io.vivace.realcluster;

import java.util.List;

/** Apache's daemons a host runs, each a JVM of its own, with the ports it listens on. */
enum Daemon {
  NAMENODE("namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", 512,
      List.of(Port.NAMENODE_RPC, Port.NAMENODE_HTTP)),
  RESOURCEMANAGER("resourcemanager", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
      512, List.of(Port.RM_CLIENT, Port.RM_SCHEDULER, Port.RM_TRACKER, Port.RM_ADMIN, Port.RM_WEB)),
  HISTORYSERVER("historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", 384,
      List.of(Port.JHS_IPC, Port.JHS_WEB, Port.JHS_ADMIN)),
  DATANODE("datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode", 384,
      List.of(Port.DATANODE_DATA, Port.DATANODE_HTTP, Port.DATANODE_IPC)),
  NODEMANAGER("nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager", 512,
      List.of(Port.NM_IPC, Port.NM_LOCALIZER, Port.NM_WEB, Port.SHUFFLE));

  /** The name Apache's scripts give it ({@code hdfs namenode}, {@code -Dproc_namenode}). */
  final String command;
  final String mainClass;
  final int heapMb;
  final List<Port> ports;

  Daemon(String command, String mainClass, int heapMb, List<Port> ports) {
    this.command = command;
    this.mainClass = mainClass;
    this.heapMb = heapMb;
    this.ports = ports;
  }

  /** The ports of the daemons, each with the number Apache's defaults give it. */
  enum Port {
    NAMENODE_RPC(8020), NAMENODE_HTTP(9870),
    RM_CLIENT(8032), RM_SCHEDULER(8030), RM_TRACKER(8031), RM_ADMIN(8033), RM_WEB(8088),
    JHS_IPC(10020), JHS_WEB(19888), JHS_ADMIN(10033),
    DATANODE_DATA(9866), DATANODE_HTTP(9864), DATANODE_IPC(9867),
    NM_IPC(8041), NM_LOCALIZER(8040), NM_WEB(8042), SHUFFLE(13562);

    final int standard;

    Port(int standard) {
      this.standard = standard;
    }
  }
}
