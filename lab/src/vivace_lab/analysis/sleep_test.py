"""STAC's sleep test (its table 3) for a study's sleep runs: per sleep size and engine, the median
time of the timed job and the tasks per second it makes, maps / time (STAC: 5000 maps, Hadoop
911.7 s = 5.48 tasks/s, Symphony 12.35 s = 406.7 tasks/s, 74x), and how many times the first
engine's rate each engine reaches."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass

SLEEP = "sleep"


@dataclass(frozen=True)
class SleepTestRow:
    size: str  # "5000 maps x 1 ms, 1 reduce x 1 ms"
    maps: int
    engine: str
    runs: int  # successful runs
    median_s: float
    tasks_per_s: float  # maps / median time
    rate_vs_baseline: float | None  # tasks/s over the baseline engine's, same size; None without it


def sleep_test(store, study_id: int, engines: list[str]) -> list[SleepTestRow]:
    """The rows for every sleep size of the study, engines in study order (the first: baseline)."""
    times: dict[tuple[str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for run in store.runs(study_id=study_id, workload=SLEEP, status="succeeded"):
        maps = int(run.params.get("maps", 0))
        if maps > 0 and run.duration_s:
            times[(_size(run.params), maps)][run.engine].append(run.duration_s)
    rows = []
    for (size, maps), by_engine in times.items():
        rates = {engine: maps / statistics.median(values) for engine, values in by_engine.items()}
        baseline = rates.get(engines[0]) if engines else None
        for engine in sorted(by_engine, key=lambda e: engines.index(e) if e in engines else len(engines)):
            median = statistics.median(by_engine[engine])
            rows.append(SleepTestRow(size, maps, engine, len(by_engine[engine]), median, rates[engine],
                                     rates[engine] / baseline if baseline else None))
    return sorted(rows, key=lambda r: r.maps)


def _size(params: dict[str, str]) -> str:
    return (f"{params.get('maps')} maps x {params.get('map_ms')} ms, "
            f"{params.get('reduces')} reduce{'' if params.get('reduces') == '1' else 's'} x {params.get('reduce_ms')} ms")
