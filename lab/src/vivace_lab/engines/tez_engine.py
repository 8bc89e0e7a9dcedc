"""Apache Tez on the study's shared mini-cluster: the same unmodified MapReduce jobs with
``mapreduce.framework.name=yarn-tez``, each one a map -> reduce DAG under a Tez ApplicationMaster of
its own that reuses its containers within the job (lab/docs/tez.md). Tez's jars are on the
cluster's HDFS (``tez.lib.uris``), staged by `vivace minicluster`, which writes the configuration
that names them beside the cluster's client configuration."""

from __future__ import annotations

from vivace_lab.engines.cluster_engine import ClusterEngine


class HadoopTezEngine(ClusterEngine):
    name = "hadoop-tez"

    def framework_options(self) -> list[str]:
        return ["-conf", str(self.cluster.tez_conf_file), "-D", "mapreduce.framework.name=yarn-tez"]

    def open_on_cluster(self) -> None:
        """Tez on the cluster before any run (a real cluster's is staged on its HDFS now)."""
        self.cluster.tez_conf_file
