"""What the models learn from: a workload's successful runs read from the store, one row each.

A run is described by its *settings*, columns named by kind:

- ``engine`` and ``cluster``;
- ``param:NAME``, each workload parameter (its size among them: rows, bytes, files ...);
- ``conf:KEY``, each configuration key some run of the workload had set by its study, with every
  run's effective value (from ``run_config``: what ran, also where the study left the key alone);
- ``hw:KEY``, each number of the cluster's hardware description (nodes, cores, memory_gib ...).

Targets: ``duration_s`` (the timed run) and ``input_bytes`` (the size axis of the extrapolation
test). Cost is not learned: it is time x the cluster's hourly price, read when it is asked for, so a
price edited on the cost page counts at once.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import func, select

from vivace_lab.record import SUCCEEDED
from vivace_lab.store import ClusterInfo, Store
from vivace_lab.store.schema import Run

ENGINE, CLUSTER = "engine", "cluster"
PARAM, CONF, HW = "param:", "conf:", "hw:"


@dataclass(frozen=True)
class TrainingSet:
    """One workload's successful runs: ``frame`` has ``run_id``, ``duration_s``,
    ``input_bytes`` and one column per setting (values as text, ``None`` where a run has none)."""

    workload: str
    frame: pd.DataFrame
    settings: tuple[str, ...]  # the setting columns, in the order above
    clusters: dict[str, ClusterInfo]  # every cluster the runs used, by name

    def __len__(self) -> int:
        return len(self.frame)

    @property
    def configuration_columns(self) -> tuple[str, ...]:
        """What a configuration is, as distinct from the workload's parameters: engine, cluster
        and the configuration keys (the hardware follows from the cluster)."""
        return tuple(c for c in self.settings if c in (ENGINE, CLUSTER) or c.startswith(CONF))

    def configuration_ids(self) -> pd.Series:
        """A label per run naming its configuration; runs of one configuration share it."""
        columns = self.configuration_columns
        return pd.Series([configuration_id(row, columns)
                          for row in self.frame[list(columns)].to_dict("records")],
                         index=self.frame.index)


def configuration_id(settings: dict, columns) -> str:
    """The label of the configuration ``settings`` have (see ``configuration_columns``)."""
    return "|".join(_text(settings.get(c)) or "" for c in columns)


def training_workloads(store: Store) -> dict[str, int]:
    """Workload -> number of successful timed runs, for every workload that has any."""
    with store.reading() as session:
        rows = session.execute(
            select(Run.workload, func.count()).where(Run.status == SUCCEEDED,
                                                     Run.duration_s > 0)
            .group_by(Run.workload).order_by(Run.workload))
        return {workload: count for workload, count in rows}


def fingerprint(store: Store, workload: str) -> tuple:
    """Changes whenever the workload's training runs change (recorded, deleted, re-timed)."""
    with store.reading() as session:
        row = session.execute(
            select(func.count(), func.max(Run.id), func.sum(Run.duration_s))
            .where(Run.workload == workload, Run.status == SUCCEEDED, Run.duration_s > 0)).one()
    return tuple(row)


def load_training_set(store: Store, workload: str) -> TrainingSet:
    runs = [r for r in store.runs(workload=workload, status=SUCCEEDED)
            if r.duration_s is not None and r.duration_s > 0]
    clusters = {c.name: c for c in store.clusters()}
    keys = sorted({key for run in runs for key in run.overrides})
    effective = store.config_values(keys, workload=workload, status=SUCCEEDED) if keys else {}
    param_names = sorted({name for run in runs for name in run.params})
    used = {run.cluster: clusters[run.cluster] for run in runs if run.cluster in clusters}
    hardware = sorted({key for c in used.values() for key, value in c.description.items()
                       if _is_number(value)})

    rows = []
    for run in runs:
        values = effective.get(run.id, {})
        description = used[run.cluster].description if run.cluster in used else {}
        row = {"run_id": run.id, "duration_s": float(run.duration_s),
               "input_bytes": run.input_bytes, ENGINE: run.engine, CLUSTER: run.cluster}
        row.update({PARAM + name: run.params.get(name) for name in param_names})
        row.update({CONF + key: run.overrides.get(key, values.get(key)) for key in keys})
        row.update({HW + key: _text(description.get(key)) for key in hardware})
        rows.append(row)
    settings = (ENGINE, CLUSTER, *(PARAM + n for n in param_names), *(CONF + k for k in keys),
                *(HW + k for k in hardware))
    # object columns keep None as None (pandas' string columns would make it NaN)
    frame = pd.DataFrame(rows, columns=["run_id", "duration_s", "input_bytes", *settings],
                         dtype=object)
    frame["duration_s"] = frame["duration_s"].astype(float)
    return TrainingSet(workload, frame, settings, used)


def hardware_settings(cluster: ClusterInfo | None, settings: tuple[str, ...]) -> dict[str, str | None]:
    """The ``hw:`` settings a run on ``cluster`` has."""
    description = cluster.description if cluster else {}
    return {c: _text(description.get(c[len(HW):])) for c in settings if c.startswith(HW)}


def describe_settings(settings: dict[str, str | None], columns=None) -> str:
    """``engine=vivace cluster=lab param:rows=1000 ...`` minus the hardware (it follows from the
    cluster), for messages and tables."""
    columns = columns or settings.keys()
    return " ".join(f"{short_name(c)}={settings[c]}" for c in columns
                    if not c.startswith(HW) and settings.get(c) is not None)


def short_name(column: str) -> str:
    """The name a user types: ``param:rows`` -> ``rows``, ``conf:KEY`` -> ``KEY``."""
    for prefix in (PARAM, CONF, HW):
        if column.startswith(prefix):
            return column[len(prefix):]
    return column


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)
