"""A small lab database for the web app's tests, recorded through the real Store API the way the
study runner records runs: TeraSort on two engines and two sort buffers (with jobs, tasks,
counters and 1-second samples), a failed run, sleep runs and TestDFSIO runs, on two priced
clusters, part of them in a study."""

from __future__ import annotations

from dataclasses import dataclass, field

from rundata import failed_result, terasort_result

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import SUCCEEDED, RunResult

LOCAL_CLUSTER = "lab-1x2"  # vivace runs; price 0.10 per hour
CLOUD_CLUSTER = "cloud-4x8"  # hadoop-local runs; price 0.50 per hour
STUDY = "web-test"
SPILLED = "SPILLED_RECORDS"
T0 = 1763766002000  # the record's start


@dataclass
class Seeded:
    terasort: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # (engine, sort mb)
    durations: dict[int, float] = field(default_factory=dict)
    failed: int = 0
    sleep: dict[str, list[int]] = field(default_factory=dict)  # engine -> run ids
    dfsio: list[int] = field(default_factory=list)

    def terasort_ids(self, engine: str | None = None) -> list[int]:
        return sorted(i for (e, _), ids in self.terasort.items() if engine in (None, e)
                      for i in ids)


def terasort_run(engine: str, sort_mb: str, repeat: int, duration_s: float,
                 shift_ms: int, samples: int) -> RunResult:
    cluster = LOCAL_CLUSTER if engine == "vivace" else CLOUD_CLUSTER
    result = terasort_result(cluster=cluster, engine=engine, repeat=repeat,
                             overrides={"mapreduce.task.io.sort.mb": sort_mb},
                             sample_count=samples, shift_ms=shift_ms)
    result.duration_s = duration_s
    if engine != "vivace":  # the LocalJobRunner spills twice as much in this story
        for job in result.record["jobs"]:
            counters = job.get("counters", {}).get("org.apache.hadoop.mapreduce.TaskCounter", {})
            if SPILLED in counters:
                counters[SPILLED] *= 2
    return result


def sleep_run(engine: str, maps: int, duration_s: float, shift_ms: int) -> RunResult:
    start = T0 + shift_ms
    return RunResult(workload="sleep", engine=engine, cluster=LOCAL_CLUSTER,
                     params={"maps": str(maps), "reduces": "1", "map_ms": "1", "reduce_ms": "1"},
                     overrides={}, status=SUCCEEDED, started_ms=start,
                     finished_ms=start + round(duration_s * 1000), duration_s=duration_s,
                     validation_status="PASSED", validation_detail=f"{maps} map tasks ran")


def dfsio_run(engine: str, throughput: float, shift_ms: int) -> RunResult:
    start = T0 + shift_ms
    figures = {"files": 2, "bytes": 2 * 8 * 1048576, "task_time_ms": 400,
               "throughput_mb_s": throughput, "avg_io_rate_mb_s": throughput * 1.1,
               "io_rate_std_dev_mb_s": 3.5, "job_wall_ms": 1500,
               "aggregate_bandwidth_mb_s": throughput / 2}
    record = {"record_version": 1, "workload": "dfsio-write", "results": {"dfsio": figures},
              "jobs": [], "configuration": {}}
    return RunResult(workload="dfsio-write", engine=engine, cluster=LOCAL_CLUSTER,
                     params={"files": "2", "file_mb": "8"}, overrides={}, status=SUCCEEDED,
                     started_ms=start, finished_ms=start + 1500, duration_s=1.5,
                     validation_status="PASSED", validation_detail="bytes written = 16 MiB",
                     record=record)


def seed(store) -> Seeded:
    seeded = Seeded()
    store.ensure_cluster(LOCAL_CLUSTER, {"nodes": 1, "cores_per_node": 2}, 0.10)
    store.ensure_cluster(CLOUD_CLUSTER, {"nodes": 4, "cores_per_node": 8}, 0.50)
    plan = []
    for engine, base in (("vivace", 1.6), ("hadoop-local", 3.1)):
        for sort_mb, extra in (("100", 0.0), ("64", 0.4)):
            for repeat in range(3):
                plan.append((engine, sort_mb, repeat, base + extra + 0.1 * repeat))
    planned = [PlannedRun(seq, "terasort", engine, {"rows": "100000", "maps": "2", "reduces": "1"},
                          {"mapreduce.task.io.sort.mb": sort_mb}, repeat)
               for seq, (engine, sort_mb, repeat, _) in enumerate(plan)]
    study = store.open_study(STUDY, f"name: {STUDY}\n", 7, planned)
    for seq, (engine, sort_mb, repeat, duration) in enumerate(plan):
        result = terasort_run(engine, sort_mb, repeat, duration, seq * 60_000, 8 + seq)
        run_id = store.record_run(result, study.id, seq)
        seeded.terasort.setdefault((engine, sort_mb), []).append(run_id)
        seeded.durations[run_id] = duration
    seeded.failed = store.record_run(failed_result(cluster=LOCAL_CLUSTER))
    for i, (engine, duration) in enumerate((("vivace", 1.25), ("vivace", 1.35),
                                            ("hadoop-local", 3.5), ("hadoop-local", 3.9))):
        run_id = store.record_run(sleep_run(engine, 20, duration, 3_600_000 + i * 10_000))
        seeded.sleep.setdefault(engine, []).append(run_id)
        seeded.durations[run_id] = duration
    for i, (engine, throughput) in enumerate((("vivace", 410.0), ("hadoop-local", 205.0))):
        seeded.dfsio.append(store.record_run(dfsio_run(engine, throughput, 7_200_000 + i * 5000)))
    return seeded
