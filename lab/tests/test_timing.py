"""The lab's timing mode (`vivace lab bench`, bench/run's front) driven through its seams, in
milliseconds: the command line with fake engines behind the study runner's engine factory and a
catalogue of its own, the alternating queue, the ratio table read back from the store, the refusals.
The same on real engines, through bench/run, is in test_bench_run.py (integration, slow)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pytest

from vivace_lab.engines import Engine, RunSettings
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.queue import plan_queue
from vivace_lab.plan.spec import StudySpec, WorkloadPoint
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.report.ratios import Metric, TimedRun, format_shuffle_bytes, format_table, ratio_rows
from vivace_lab.store import Store
from vivace_lab.timing import command, plan
from vivace_lab.workloads.catalogue import Workload


class TimedFake(Engine):
    """Succeeds each run in ``seconds[workload]`` (stored, not slept), peak RSS ``rss``; fails the
    runs of ``failing``."""

    def __init__(self, name: str, seconds: dict[str, float], rss: float, log: list[str],
                 failing: tuple[str, ...] = ()) -> None:
        self.name, self.seconds, self.rss, self.log, self.failing = name, seconds, rss, log, failing

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        self.log.append(f"{planned.workload} {self.name} #{planned.repeat} {planned.overrides}")
        run_dir.mkdir(parents=True)
        (run_dir / "output").write_text("what a run leaves")
        now = int(time.time() * 1000)
        ok = planned.workload not in self.failing
        return RunResult(workload=planned.workload, engine=self.name, cluster=settings.cluster,
                         params=dict(planned.params), overrides=dict(planned.overrides),
                         status=SUCCEEDED if ok else FAILED, started_ms=now, finished_ms=now,
                         duration_s=self.seconds[planned.workload] + planned.repeat, repeat=planned.repeat,
                         failure=None if ok else "run: exit 1", validation_status="PASSED",
                         record={"process": {"peak_rss_mb": self.rss + planned.repeat}, "jobs": []})


CATALOGUE = {name: Workload(name, f"the {name} workload", ()) for name in plan.CATALOGUE_RUNS}


def bench_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/run")
    command.add_arguments(parser)
    return parser.parse_args(list(argv))


def run_bench(tmp_path: Path, argv: list[str], engines: dict[str, TimedFake]) -> int:
    args = bench_args("--work-dir", str(tmp_path / "work"), *argv)
    return command.run(args, store_url=f"sqlite:///{tmp_path / 'lab.db'}", catalogue=CATALOGUE, lab_reports=False,
                       engine_factory=lambda name, home, cluster: engines[name])


def test_the_engines_alternate_who_goes_first_and_the_table_gives_their_ratio(tmp_path, capsys):
    log: list[str] = []
    engines = {"vivace": TimedFake("vivace", {"sleep": 2.0, "terasort": 4.0}, 100, log),
               "hadoop-local": TimedFake("hadoop-local", {"sleep": 6.0, "terasort": 8.0}, 300, log)}
    status = run_bench(tmp_path, ["--workloads", "terasort,sleep", "--repeats", "3", "--scale", "tiny",
                                  "--size", "terasort=1m"], engines)
    assert status == 0
    assert log == ["sleep vivace #0 {}", "sleep hadoop-local #0 {}", "sleep hadoop-local #1 {}", "sleep vivace #1 {}",
                   "sleep vivace #2 {}", "sleep hadoop-local #2 {}",
                   "terasort vivace #0 {}", "terasort hadoop-local #0 {}", "terasort hadoop-local #1 {}",
                   "terasort vivace #1 {}", "terasort vivace #2 {}", "terasort hadoop-local #2 {}"], \
        "workload by workload, every other repeat the other engine first"
    out = capsys.readouterr().out
    sleep = next(line for line in out.splitlines() if line.startswith("sleep "))
    assert "200 maps x 1 ms" in sleep and "3.00 (2.00..4.00)" in sleep and "7.00 (6.00..8.00)" in sleep
    assert sleep.split()[-1] == f"{7.0 / 3.0:.2f}x" and " 102 " in sleep and " 302 " in sleep
    terasort = next(line for line in out.splitlines() if line.startswith("terasort "))
    assert terasort.split()[-1] == f"{9.0 / 5.0:.2f}x"
    assert "speedup: hadoop-local/vivace for times, vivace/hadoop-local for rates; above 1x, Vivace is faster" in out
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        [study] = store.studies()
        runs = store.runs(study_id=study.id)
    assert study.name in out and len(runs) == 12, "every run is in the lab's store, under the bench's study"
    assert {r.params["rows"] for r in runs if r.workload == "terasort"} == {str((1 << 20) // 100)}
    assert not list((tmp_path / "work" / "runs").rglob("output")), "without --keep no run folder is left"


def test_codecs_are_runs_of_their_own_and_a_failed_run_fails_the_command(tmp_path, capsys):
    log: list[str] = []
    engines = {"vivace": TimedFake("vivace", {"wordcount": 2.0}, 100, log),
               "hadoop-local": TimedFake("hadoop-local", {"wordcount": 3.0}, 300, log, failing=("wordcount",))}
    status = run_bench(tmp_path, ["--workloads", "wordcount", "--repeats", "1", "--codecs", "none,lz4", "--keep"],
                       engines)
    assert status == 1, "a failed run fails bench"
    assert log == ["wordcount vivace #0 {}", "wordcount hadoop-local #0 {}",
                   "wordcount vivace #0 {'mapreduce.map.output.compress': 'true', "
                   "'mapreduce.map.output.compress.codec': 'org.apache.hadoop.io.compress.Lz4Codec'}",
                   "wordcount hadoop-local #0 {'mapreduce.map.output.compress': 'true', "
                   "'mapreduce.map.output.compress.codec': 'org.apache.hadoop.io.compress.Lz4Codec'}"]
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("wordcount")]
    assert rows == ["wordcount", "wordcount+lz4"]
    assert len(list((tmp_path / "work" / "runs").rglob("output"))) == 4, "--keep keeps the run folders"


@pytest.mark.parametrize("argv, message", [
    (["--cluster", "0"], "--cluster 0: at least one NodeManager"),
    (["--cluster", "3", "--workloads", "sort"], "--cluster runs latency,sleep,terasort,wordcount,executor-loss; not sort"),
    (["--cluster", "3", "--workloads", "executor-loss"], "executor-loss needs terasort too"),
    (["--cluster", "3", "--codecs", "lz4"], "--cluster runs without --baseline and --codecs"),
    (["--workloads", "dfsio-write"], "--workloads dfsio-write: unknown workload"),
    (["--workloads", "sleep", "--size", "sleep=lots"], "--size sleep=lots: 'lots' is not a size"),
    (["--codecs", "zstd"], "unknown codec(s) zstd"),
])
def test_what_bench_cannot_run_is_refused(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit:
        run_bench(tmp_path, argv, {})
    assert exit.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "lab.db").exists(), "nothing ran, nothing was stored"


def test_the_cluster_mode_runs_the_session_against_mapreduce_on_one_shaped_cluster():
    spec = plan.timing_spec("c", ["terasort", "executor-loss", "latency"], ("vivace-yarn", "hadoop-yarn"), "tiny",
                            {}, ["none"], 2, cluster_nodes=3)
    assert (spec.cluster.nodemanagers, spec.cluster.datanodes) == (3, 3)
    queue = [(p.workload, p.engine, p.repeat) for p in plan_queue(spec)]
    assert queue == [("terasort", "vivace-yarn", 0), ("terasort", "hadoop-yarn", 0),
                     ("terasort", "hadoop-yarn", 1), ("terasort", "vivace-yarn", 1),
                     ("latency", "vivace-yarn", 0), ("latency", "hadoop-yarn", 0),
                     ("latency", "hadoop-yarn", 1), ("latency", "vivace-yarn", 1),
                     ("executor-loss", "vivace-yarn", 0), ("executor-loss", "vivace-yarn", 1)]
    latency = {p.engine: p.params for p in plan_queue(spec) if p.workload == "latency"}
    assert latency == {"vivace-yarn": {"runs": "20", "warmup": "5", "maps": "0"},
                       "hadoop-yarn": {"runs": "2", "warmup": "1", "maps": "0"}}, "an empty job takes ~25 s on YARN"
    assert len({p.seq for p in plan_queue(spec)}) == 10


def test_in_the_alternating_order_a_sweep_runs_point_by_point():
    engines = ("vivace", "hadoop-local")
    points = tuple(WorkloadPoint("sleep", {"maps": maps}, engines) for maps in ("1", "2"))
    queue = [(p.params["maps"], p.engine, p.repeat)
             for p in plan_queue(StudySpec("s", "", 0, 2, engines, points, ({},), order="alternate"))]
    assert queue == [("1", "vivace", 0), ("1", "hadoop-local", 0), ("1", "hadoop-local", 1), ("1", "vivace", 1),
                     ("2", "vivace", 0), ("2", "hadoop-local", 0), ("2", "hadoop-local", 1), ("2", "vivace", 1)]
    rounds = [(p.params["maps"], p.engine, p.repeat) for p in plan_queue(StudySpec("s", "", 0, 2, engines, points, ({},)))]
    assert rounds[:4] == [("1", "vivace", 0), ("1", "hadoop-local", 0), ("2", "vivace", 0), ("2", "hadoop-local", 0)]


def run_of(label: str, engine: str, seconds: float, ok: bool = True, record: dict | None = None) -> TimedRun:
    return TimedRun(label, "size", engine, ok, seconds, 100.0, record)


def test_figures_of_a_report_are_rows_of_their_own_rates_the_other_way_round():
    latency = lambda ms, rate: {"results": {"latency": {"empty_job": {"median_ms": ms}, "sleep_job": {"tasks_per_s": rate}}}}
    runs = [run_of("latency", "vivace", 9.0, record=latency(50.0, 3000)),
            run_of("latency", "vivace@abc", 9.0, record=latency(100.0, 2000)),
            run_of("latency", "vivace@abc", 9.0, ok=False)]
    empty, tasks = ratio_rows(runs, ("vivace", "vivace@abc"))
    assert empty["workload"] == "empty-job latency" and empty["speedup"] == pytest.approx(2.0), "times: other/current"
    assert tasks["speedup"] == pytest.approx(1.5) and tasks["ratio"] == "vivace/vivace@abc", "rates: current/other"
    assert tasks["vivace@abc"]["failed"] == 1
    table = format_table([empty, tasks], ("vivace", "vivace@abc"), "this checkout's build")
    assert "vivace@abc (min..max)" in table and "3000 (3000..3000)" in table
    assert "speedup: vivace@abc/vivace for times, vivace/vivace@abc for rates; above 1x, this checkout's build" in table


def test_an_engine_without_a_successful_run_shows_failed_and_no_ratio():
    [row] = ratio_rows([run_of("sort", "vivace", 3.0), run_of("sort", "hadoop-local", 0.0, ok=False)],
                       ("vivace", "hadoop-local"))
    assert row["speedup"] is None and row["hadoop-local"]["failed"] == 1
    assert "failed" in format_table([row], ("vivace", "hadoop-local")).splitlines()[2]


def test_shuffle_bytes_are_shown_only_when_a_codec_ran():
    def counted(raw: int, stored: int) -> dict:
        return {"jobs": [{"phase": "prepare", "counters": {"t": {"MAP_OUTPUT_BYTES": 1}}},
                         {"phase": "run", "counters": {"org.apache.hadoop.mapreduce.TaskCounter": {
                             "MAP_OUTPUT_BYTES": raw, "MAP_OUTPUT_MATERIALIZED_BYTES": stored}}}]}
    plain = [run_of("terasort", "vivace", 1.0, record=counted(10_000_000, 10_000_000))]
    assert format_shuffle_bytes(plain, ("vivace", "hadoop-local")) == ""
    lines = format_shuffle_bytes(plain + [run_of("terasort+lz4", "vivace", 1.0, record=counted(10_000_000, 4_000_000))],
                                 ("vivace", "hadoop-local")).splitlines()
    assert lines[1].split() == ["terasort", "vivace", "10.0", "10.0", "1.00", "0.0"]
    assert lines[2].split() == ["terasort+lz4", "vivace", "10.0", "4.0", "0.40", "0.0"]


def test_a_metric_missing_from_a_record_is_no_value():
    metric = Metric("m", ("results", "x"), "s", False)
    assert metric.value(run_of("w", "e", 1.0, record={"results": {}})) is None
    assert metric.value(run_of("w", "e", 1.0, record={"results": {"x": 2}})) == 2.0


def test_the_cluster_modes_session_keeps_one_executor_per_node_beside_room_for_mapreduce():
    from vivace_lab.engines.session import SessionSize

    for nodes in (1, 3):
        shape = plan.cluster_shape(nodes)
        size = SessionSize.fixed(shape)
        assert size.keys()["vivace.session.executors.min"] == size.keys()["vivace.session.executors.max"] == str(nodes)
        held = size.am_memory_mb + nodes * size.executor_memory_mb
        free = nodes * shape.nm_memory_mb - held
        assert free >= 2 * shape.container_mb, "MapReduce's master and at least one task fit beside the session"
        assert size.am_memory_mb + shape.container_mb <= shape.max_am_percent * nodes * shape.nm_memory_mb, \
            "both masters are within the scheduler's share for masters"
