"""A lab database with a known law, for the models' tests, recorded through the real Store API.

TeraSort runs whose time is SECONDS_PER_ROW x rows / slots, times 1.8 on hadoop-local, times 0.4
on the big cluster, times lognormal noise of sigma NOISE; the sort buffer has no effect. Two
priced clusters: the small one at 1.0 per hour, the big one (2.5 times as fast) at 3.0, so a run
costs 20 % more there. Plus 12 sleep runs: too few for a model.
"""

from __future__ import annotations

import random

import pytest

from vivace_lab.record import SUCCEEDED, RunResult
from vivace_lab.store import Store

SMALL, BIG = "small-2c", "big-8c"
PRICES = {SMALL: 1.0, BIG: 3.0}
SPEED = {SMALL: 1.0, BIG: 0.4}
ENGINE_FACTOR = {"vivace": 1.0, "hadoop-local": 1.8}
ROWS = (100_000, 200_000, 400_000, 800_000, 1_600_000)
SLOTS = (1, 2, 4)
SORT_MB = (50, 100)
SECONDS_PER_ROW = 2e-5
NOISE = 0.05
SLEEP_RUNS = 12
T0 = 1763766002000


def law(rows: int, slots: int, engine: str, cluster: str) -> float:
    """The true mean time of a run, in seconds."""
    return SECONDS_PER_ROW * rows / slots * ENGINE_FACTOR[engine] * SPEED[cluster]


@pytest.fixture(scope="module")
def law_store(tmp_path_factory):
    """A module's SQLite database seeded with ``seed_law``."""
    store = Store(str(tmp_path_factory.mktemp("law") / "lab.db"))
    seed_law(store)
    yield store
    store.close()


def seed_law(store, seed: int = 3) -> int:
    """Records the runs; returns how many terasort runs."""
    rng = random.Random(seed)
    store.ensure_cluster(SMALL, {"nodes": 1, "cores": 2, "memory_gib": 8}, PRICES[SMALL])
    store.ensure_cluster(BIG, {"nodes": 1, "cores": 8, "memory_gib": 32}, PRICES[BIG])
    count = 0
    for rows in ROWS:
        for engine in ENGINE_FACTOR:
            for cluster in SPEED:
                for slots in SLOTS:
                    for sort_mb in SORT_MB:
                        seconds = law(rows, slots, engine, cluster) * rng.lognormvariate(0, NOISE)
                        store.record_run(terasort(engine, cluster, rows, slots, sort_mb, seconds,
                                                  count))
                        count += 1
    for i in range(SLEEP_RUNS):
        start = T0 + 10_000_000 + i * 10_000
        store.record_run(RunResult(
            workload="sleep", engine="vivace", cluster=SMALL,
            params={"maps": "20", "reduces": "1", "map_ms": "1", "reduce_ms": "1"}, overrides={},
            status=SUCCEEDED, started_ms=start, finished_ms=start + 1300, duration_s=1.3,
            validation_status="PASSED"))
    return count


def terasort(engine: str, cluster: str, rows: int, slots: int, sort_mb: int, seconds: float,
             index: int) -> RunResult:
    start = T0 + index * 100_000
    return RunResult(
        workload="terasort", engine=engine, cluster=cluster,
        params={"rows": str(rows), "maps": "2", "reduces": "1"},
        overrides={"vivace.slots": str(slots), "mapreduce.task.io.sort.mb": str(sort_mb)},
        status=SUCCEEDED, started_ms=start, finished_ms=start + round(seconds * 1000),
        duration_s=seconds, input_bytes=rows * 100, validation_status="PASSED")


def seed_bundled(store) -> int:
    """A small set on the small cluster alone: 4 sizes x 2 engines x 3 slot counts, each slot count
    set as a grid bundle does, vivace.slots and the LocalJobRunner's key together, no noise."""
    store.ensure_cluster(SMALL, {"nodes": 1, "cores": 2}, PRICES[SMALL])
    count = 0
    for rows in ROWS[:4]:
        for engine in ENGINE_FACTOR:
            for slots in SLOTS:
                start = T0 + count * 100_000
                seconds = law(rows, slots, engine, SMALL)
                store.record_run(RunResult(
                    workload="terasort", engine=engine, cluster=SMALL,
                    params={"rows": str(rows), "maps": "2", "reduces": "1"},
                    overrides={"vivace.slots": str(slots),
                               "mapreduce.local.map.tasks.maximum": str(slots)},
                    status=SUCCEEDED, started_ms=start, finished_ms=start + round(seconds * 1000),
                    duration_s=seconds, input_bytes=rows * 100, validation_status="PASSED"))
                count += 1
    return count
