"""The engines the lab knows: what each runs, what it cannot run and why, and whether it runs on the
study's shared YARN + HDFS mini-cluster. Light, so a spec can be checked without starting any.

An engine joins the lab with one entry in ``ENGINES`` and its class, named by ``factory``
(``module:Class``). Engines with ``on_cluster`` are built with the study's shared mini-cluster
(``cluster_engine.ClusterEngine``): the spec's ``cluster`` key shapes it, the runner starts it once
for all of them and stores its shape with their runs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field

from vivace_lab.workloads.catalogue import WORKLOADS

# Every workload of the bench driver's catalogue, read when first used.
DRIVER_WORKLOADS = WORKLOADS.keys()


@dataclass(frozen=True)
class EngineInfo:
    name: str
    factory: str  # "module:Class"; cluster engines take (cluster), the others no argument
    workloads: Collection[str]  # the workloads it has an adapter for
    unsupported: Mapping[str, str] = field(default_factory=dict)  # workload -> why it cannot run it
    on_cluster: bool = False  # runs on the study's shared YARN + HDFS mini-cluster

    def runs(self, workload: str) -> bool:
        return workload in self.workloads and workload not in self.unsupported


# Found by running every driver workload on Tez 0.10.5 (lab/docs/tez.md): the job client that
# Tez gives MapReduce programs answers every counter with nothing (TEZ-146), so a program that
# steers itself by its counters cannot run on it unchanged.
TEZ_UNSUPPORTED = {
    "pagerank": "PageRank decides each iteration from its job's RANK_CHANGE_NANO counter, and Tez's "
                "MapReduce client reports no counters to the program (Job.getCounters() is empty)",
}

ENGINES: dict[str, EngineInfo] = {e.name: e for e in (
    EngineInfo("vivace", "vivace_lab.engines.local_engines:VivaceEngine", DRIVER_WORKLOADS),
    EngineInfo("hadoop-local", "vivace_lab.engines.local_engines:HadoopLocalEngine", DRIVER_WORKLOADS),
    EngineInfo("hadoop-yarn", "vivace_lab.engines.yarn_engine:HadoopYarnEngine", DRIVER_WORKLOADS,
               on_cluster=True),
    EngineInfo("hadoop-tez", "vivace_lab.engines.tez_engine:HadoopTezEngine", DRIVER_WORKLOADS,
               unsupported=TEZ_UNSUPPORTED, on_cluster=True),
    EngineInfo("vivace-yarn", "vivace_lab.engines.vivace_yarn_engine:VivaceYarnEngine", DRIVER_WORKLOADS,
               on_cluster=True),
    EngineInfo("spark", "vivace_lab.engines.spark.engine:SparkEngine", ("sleep", "terasort", "wordcount")),
)}


class _EngineWorkloads(Mapping[str, tuple[str, ...]]):
    """What each engine runs (its adapter's workloads without the unsupported ones), computed when
    asked, so that naming the engines does not read the driver's catalogue."""

    def __getitem__(self, engine: str) -> tuple[str, ...]:
        return tuple(w for w in ENGINES[engine].workloads if ENGINES[engine].runs(w))

    def __iter__(self) -> Iterator[str]:
        return iter(ENGINES)

    def __len__(self) -> int:
        return len(ENGINES)


ENGINE_WORKLOADS: Mapping[str, tuple[str, ...]] = _EngineWorkloads()

CLUSTER_ENGINES: tuple[str, ...] = tuple(info.name for info in ENGINES.values() if info.on_cluster)
