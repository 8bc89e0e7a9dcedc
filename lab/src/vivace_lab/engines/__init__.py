"""Engine adapters: each runs a workload on one system and returns a RunResult."""

from __future__ import annotations

import importlib
from pathlib import Path

from vivace_lab.engines.base import Engine, EngineUnavailable, RunSettings
from vivace_lab.engines.names import CLUSTER_ENGINES, ENGINE_WORKLOADS, ENGINES


def create_engine(name: str, lab_home: Path, cluster=None) -> Engine:
    """The engine ``name``. Engines on the mini-cluster run on ``cluster`` (a SharedCluster) when
    given, else on one of their own of the default shape under ``lab_home``, started when the engine
    opens and stopped when it closes."""
    info = ENGINES.get(name)
    if info is None:
        raise KeyError(f"unknown engine '{name}' (known: {', '.join(ENGINES)})")
    module, _, class_name = info.factory.partition(":")
    engine_class = getattr(importlib.import_module(module), class_name)
    if info.on_cluster:
        return engine_class(cluster, home=lab_home / "minicluster")
    return engine_class()


__all__ = ["Engine", "EngineUnavailable", "RunSettings", "create_engine", "CLUSTER_ENGINES",
           "ENGINE_WORKLOADS", "ENGINES"]
