"""Apache Hadoop's MapReduce on YARN (a real ResourceManager and NodeManagers with HDFS): the
study's shared mini-cluster, one ApplicationMaster and one container JVM per task for each job."""

from __future__ import annotations

from vivace_lab.engines.cluster_engine import ClusterEngine


class HadoopYarnEngine(ClusterEngine):
    name = "hadoop-yarn"

    def framework_options(self) -> list[str]:
        return ["-D", "mapreduce.framework.name=yarn"]
