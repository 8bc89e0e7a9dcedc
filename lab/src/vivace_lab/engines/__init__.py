"""Engine adapters: each runs a workload on one system and returns a RunResult."""

from __future__ import annotations

from pathlib import Path

from vivace_lab.engines.base import Engine, EngineUnavailable, RunSettings
from vivace_lab.engines.names import ENGINE_WORKLOADS


def create_engine(name: str, lab_home: Path, minicluster_options: tuple[str, ...] = ()) -> Engine:
    if name == "vivace":
        from vivace_lab.engines.local_engines import VivaceEngine
        return VivaceEngine()
    if name == "hadoop-local":
        from vivace_lab.engines.local_engines import HadoopLocalEngine
        return HadoopLocalEngine()
    if name == "hadoop-yarn":
        from vivace_lab.engines.yarn_engine import HadoopYarnEngine
        return HadoopYarnEngine(lab_home / "minicluster", minicluster_options)
    if name == "spark":
        from vivace_lab.engines.spark.engine import SparkEngine
        return SparkEngine()
    raise KeyError(f"unknown engine '{name}' (known: {', '.join(ENGINE_WORKLOADS)})")


__all__ = ["Engine", "EngineUnavailable", "RunSettings", "create_engine", "ENGINE_WORKLOADS"]
