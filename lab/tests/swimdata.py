"""SWIM replays made by hand for the analysis and web tests: four trace jobs on vivace and
hadoop-local, one of them failing on hadoop-local."""

from __future__ import annotations

from vivace_lab.analysis import swim
from vivace_lab.record import FAILED, SUCCEEDED, RunResult

T0 = 1_763_766_000_000
# index: (scaled input, shuffle, output) bytes
SIZES = {0: (0, 0, 0), 1: (5, 10, 0), 2: (1500, 100, 99), 3: (2_000_000, 10**9, 10)}
TRACE_HISTOGRAMS = {kind: [i + 1 for i in range(17)] for kind in swim.SIZE_KINDS}


def replay(engine: str, seconds: dict[int, float | None], sample_every: int = 1,
           params: dict[str, str] | None = None) -> RunResult:
    """A swim run whose job i took ``seconds[i]`` (None: it failed); jobs beyond SIZES' have no
    sizes. ``sample_every``: the K of a systematic sample, as the driver records it."""
    planned, jobs = [], []
    for index, took in seconds.items():
        due = T0 + 1000 * index
        job_id = f"job_{engine}_{index}"
        status = "SUCCEEDED" if took is not None else "FAILED"
        scaled_input, scaled_shuffle, scaled_output = SIZES.get(index, (0, 0, 0))
        planned.append({"index": index, "name": f"job{index}", "due_ms": due, "job_id": job_id,
                        "status": status, "failure": None if took is not None else "map failed: boom",
                        "scaled_input_bytes": scaled_input, "scaled_shuffle_bytes": scaled_shuffle,
                        "scaled_output_bytes": scaled_output})
        jobs.append({"phase": "run", "job_id": job_id, "name": f"swim-{index}-job{index}", "status": status,
                     "submit_ms": due + 20, "start_ms": None, "finish_ms": None,
                     "done_ms": due + 20 + int(1000 * (took if took is not None else 0.3)),
                     "maps": 1, "reduces": 1, "counters": {}, "tasks": []})
    failed = any(t is None for t in seconds.values())
    record = {"workload": "swim", "params": {}, "status": "SUCCEEDED", "started_ms": T0, "finished_ms": T0 + 9000,
              "results": {"swim": {"trace_jobs": 153, "sample_every": sample_every,
                                   "trace_size_histograms": TRACE_HISTOGRAMS, "jobs": planned}},
              "jobs": jobs}
    return RunResult(workload="swim", engine=engine, cluster="lab-1x2", params=params or {"jobs": "4"}, overrides={},
                     status=FAILED if failed else SUCCEEDED, started_ms=T0, finished_ms=T0 + 9000,
                     validation_status="FAILED" if failed else "PASSED", record=record,
                     failure=f"validate: 1 of {len(seconds)} replayed jobs failed" if failed else None)


def seed_swim_study(store, name: str = "swim-test") -> int:
    """A study of two replays: vivace (1, 2, 4, 0.5 s) and hadoop-local (3, 6, failed, 2 s); its id."""
    study = store.open_study(name, f"name: {name}", 1, [])
    store.record_run(replay("vivace", {0: 1.0, 1: 2.0, 2: 4.0, 3: 0.5}), study_id=study.id)
    store.record_run(replay("hadoop-local", {0: 3.0, 1: 6.0, 2: None, 3: 2.0}), study_id=study.id)
    return study.id
