"""`vivace lab swim`: the generated study spec, the trace it finds or refuses, the synthetic
trace generator, and a tiny replay end to end through the CLI."""

from __future__ import annotations

import argparse

import pytest

from swimdata import replay
from test_runner import FakeEngine, runner

from vivace_lab import swim_study
from vivace_lab.analysis import swim
from vivace_lab.plan.queue import plan_queue
from vivace_lab.plan.spec import parse_spec
from vivace_lab.store import Store
from test_study_cli import lab


def options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    swim_study.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_default_replay_is_fb2010s_first_20_jobs_on_the_three_engines(tmp_path, hadoop_keys):
    path = swim_study.write_spec(options(), tmp_path)
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert spec.engines == ("vivace", "hadoop-local", "hadoop-yarn")
    [point] = spec.workload_points
    assert point.workload == "swim"
    assert point.params["trace"].endswith("shared/data/swim/FB-2010_samples_24_times_1hr_0.tsv")
    assert (point.params["jobs"], point.params["cluster_nodes"], point.params["trace_nodes"]) == ("20", "1", "3000")
    assert (point.params["scale_factor"], point.params["gap_compression"]) == ("0.0", "1.0")
    assert point.params["block_size"] == str(4 * 2**20)
    # the same options name the same study (so it resumes); others another
    assert swim_study.write_spec(options(), tmp_path) == path
    assert swim_study.write_spec(options("--window", "1200"), tmp_path) != path


def test_a_replay_on_a_cluster_of_three_runs_the_cluster_engines_on_one_shared_cluster(tmp_path, hadoop_keys):
    default = swim_study.write_spec(options(), tmp_path)
    path = swim_study.write_spec(options("--cluster", "3", "--jobs", "20"), tmp_path)
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert spec.engines == ("hadoop-yarn", "hadoop-tez", "vivace-yarn")
    shape = spec.cluster
    assert (shape.nodemanagers, shape.datanodes, shape.nm_memory_mb, shape.container_mb, shape.max_am_percent) == \
        (3, 3, 4096, 512, 0.5)
    # the replay's own containers on the one-node cluster too
    assert parse_spec(default.read_text(), str(default), hadoop_keys).cluster.container_mb == 512
    assert path != default
    assert swim_study.write_spec(options("--cluster", "--jobs", "20"), tmp_path) == path
    with pytest.raises(swim_study.SwimOptionError, match="--engines names none of them"):
        swim_study.write_spec(options("--cluster", "3", "--engines", "vivace"), tmp_path)


def test_on_the_cluster_the_whole_trace_is_replayed_by_the_session_and_sampled_by_the_peers(tmp_path, hadoop_keys):
    path = swim_study.write_spec(options("--cluster"), tmp_path)
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    session = [p for p in spec.workload_points if p.engines == ("vivace-yarn",)]
    peers = [p for p in spec.workload_points if p.engines == ("hadoop-yarn", "hadoop-tez")]
    assert len(session) + len(peers) == len(spec.workload_points)
    # FB-2010's 24 one-hour samples and the 5 jobs after them, each a run of the session
    assert len(session) == 25
    assert sum(int(p.params["jobs"]) for p in session) == 24442
    assert [int(p.params["first_job"]) for p in session][:3] == [0, 977, 977 + 1600]
    first = session[0].params
    assert (first["scale_factor"], first["gap_compression"], first["block_size"], first["pool_partitions"]) == \
        ("1e-05", "4.0", str(2**20), "160")
    # the peers: the same segments, every 100th trace job; one queue entry per engine and segment
    assert {p.params["sample_every"] for p in peers} == {"100"}
    segments = [(p.params["first_job"], p.params["jobs"]) for p in session]
    assert 20 <= len(peers) <= len(session)
    assert all((p.params["first_job"], p.params["jobs"]) in segments for p in peers)
    queue = plan_queue(spec)
    assert [(q.engine, q.params["first_job"]) for q in queue[:4]] == \
        [("vivace-yarn", "0"), ("hadoop-yarn", "0"), ("hadoop-tez", "0"), ("vivace-yarn", "977")]


def test_segments_cut_the_selection_at_each_span_of_trace_time():
    # submit times 0, 5, 9, 10, 11, 25, 31 s; gaps follow
    clock = [(t, t - p) for t, p in zip([0, 5, 9, 10, 11, 25, 31], [0, 0, 5, 9, 10, 11, 25])]
    everything = swim_study.select(clock, 0, 0, 0)
    assert swim_study.segments(clock, everything, 10) == [range(0, 3), range(3, 5), range(5, 6), range(6, 7)]
    assert swim_study.segments(clock, everything, 0) == [range(0, 7)]
    # the driver's selection: at most 3 jobs from job 2; 6 s of trace time from job 1 (clock 0 to 6)
    assert swim_study.select(clock, 2, 3, 0) == range(2, 5)
    assert swim_study.select(clock, 1, 0, 6) == range(1, 2)
    with pytest.raises(swim_study.SwimOptionError, match="holds 7 jobs"):
        swim_study.select(clock, 7, 0, 0)


def test_peers_replay_the_same_trace_jobs_in_every_segment():
    clock = [(t, 1) for t in range(30)]
    params = {"first_job": 3, "jobs": 20, "window_s": 0}  # trace jobs 3..22
    points = swim_study.workload_points(params, clock, ["hadoop-yarn", "hadoop-tez", "vivace-yarn"], 4, 10)
    assert [(engines, p["first_job"], p["jobs"], p.get("sample_every")) for engines, p in points] == [
        (["vivace-yarn"], 3, 7, None), (["hadoop-yarn", "hadoop-tez"], 3, 7, 4),  # 3..9: 4, 8
        (["vivace-yarn"], 10, 10, None), (["hadoop-yarn", "hadoop-tez"], 10, 10, 4),  # 12, 16
        (["vivace-yarn"], 20, 3, None), (["hadoop-yarn", "hadoop-tez"], 20, 3, 4)]  # 20
    assert swim_study.sampled(range(3, 10), 4) == 2 and swim_study.sampled(range(21, 23), 4) == 0
    # a segment without a multiple of K has no peer run: every 8th, 20..22 has none
    points = swim_study.workload_points(params, clock, ["hadoop-yarn", "vivace-yarn"], 8, 10)
    assert [p["first_job"] for engines, p in points if engines == ["hadoop-yarn"]] == [3, 10]
    assert [p["first_job"] for engines, p in points if engines == ["vivace-yarn"]] == [3, 10, 20]
    # K = 1: every engine every job, one entry a segment
    assert [e for e, _ in swim_study.workload_points(params, clock, ["hadoop-yarn", "vivace-yarn"], 1, 10)] == \
        [None, None, None]


def test_a_window_lifts_the_job_limit_and_a_factor_replaces_machines(tmp_path):
    params = swim_study.swim_params(options("--window", "1200", "--scale", "1e-5"), tmp_path / "t.tsv")
    assert (params["jobs"], params["window_s"], params["scale_factor"]) == (0, 1200, 1e-5)
    with pytest.raises(swim_study.SwimOptionError, match="neither N/M"):
        swim_study.swim_params(options("--scale", "tiny"), tmp_path / "t.tsv")


def test_the_cluster_replays_the_whole_trace_by_default_and_any_option_given_wins(tmp_path):
    trace = tmp_path / "t.tsv"
    local, cluster = swim_study.swim_params(options(), trace), swim_study.swim_params(options("--cluster"), trace)
    assert (local["jobs"], local["gap_compression"], local["block_size"]) == (20, 1.0, 4 * 2**20)
    assert (cluster["jobs"], cluster["scale_factor"], cluster["gap_compression"], cluster["pool_partitions"]) == \
        (0, 1e-5, 4.0, 160)
    given = swim_study.swim_params(options("--cluster", "--jobs", "50", "--gap-compression", "2", "--scale", "1/3000"),
                                   trace)
    assert (given["jobs"], given["gap_compression"], given["trace_nodes"]) == (50, 2.0, 3000)
    assert swim_study.swim_params(options("--jobs", "all"), trace)["jobs"] == 0
    with pytest.raises(SystemExit):
        options("--jobs", "many")


def test_a_missing_trace_says_where_the_public_traces_are(tmp_path):
    with pytest.raises(swim_study.SwimOptionError, match="github.com/SWIMProjectUCB/SWIM, folder workloadSuite"):
        swim_study.write_spec(options("--trace", str(tmp_path / "nope.tsv")), tmp_path)


def test_the_synthetic_trace_is_swims_format_and_reproducible(tmp_path):
    a = swim_study.write_synthetic_trace(tmp_path / "a.tsv", 50, seed=3).read_text().splitlines()
    b = swim_study.write_synthetic_trace(tmp_path / "b.tsv", 50, seed=3).read_text().splitlines()
    assert a == b and len(a) == 50
    submit = 0
    for i, line in enumerate(a):
        name, at, gap, *sizes = line.split("\t")
        submit += int(gap)
        assert name == f"synth{i}" and int(at) == submit and len(sizes) == 3
        assert all(int(size) >= 0 for size in sizes)
    assert any(line.split("\t")[4] == "0" for line in a), "some jobs without shuffle"


def test_a_missing_trace_exits_2_through_the_cli(tmp_path):
    done = lab(tmp_path / "home", "swim", "--trace", str(tmp_path / "nope.tsv"))
    assert done.returncode == 2
    assert "SWIMProjectUCB/SWIM" in done.stdout


@pytest.mark.slow
def test_a_tiny_synthetic_replay_end_to_end(tmp_path):
    done = lab(tmp_path / "home", "swim", "--synthetic", "4", "--engines", "vivace,hadoop-local",
               "--scale", "1e-7", "--block-size", "64KiB", "--pool-partitions", "8", "--gap-compression", "10")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SWIM: per-job time ratio" in done.stdout and "hadoop-local / vivace" in done.stdout
    [report] = (tmp_path / "home" / "reports").glob("swim-synthetic-*.html")
    assert 'id="swim"' in report.read_text()
    with Store(f"sqlite:///{tmp_path / 'home' / 'lab.db'}") as store:
        runs = store.runs(workload="swim")
        assert sorted(run.engine for run in runs) == ["hadoop-local", "vivace"]
        for run in runs:
            assert run.status == "succeeded", run.failure
            assert len([job for job in store.run(run.id).jobs if job.phase == "run"]) == 4


class SwimFakeEngine(FakeEngine):
    """Replays a swim point in no time: job i of its selection (every ``sample_every``-th) took
    ``(i + 1) * factor`` seconds."""

    def __init__(self, name, log, factor: float, **kwargs) -> None:
        super().__init__(name, log, **kwargs)
        self.factor = factor

    def run(self, planned, run_dir, settings):
        super().run(planned, run_dir, settings)  # logs, and interrupts where told
        first, count = int(planned.params["first_job"]), int(planned.params["jobs"])
        every = int(planned.params.get("sample_every", 1))
        result = replay(self.name, {i: (i + 1) * self.factor for i in range(first, first + count) if i % every == 0},
                        sample_every=every, params=dict(planned.params))
        result.cluster = settings.cluster
        return result


@pytest.mark.integration
def test_an_interrupted_replay_resumes_at_the_first_segment_not_stored(tmp_path, hadoop_keys):
    # trace seconds 0-29, 30-59, 60-: jobs 0-12, 13-29, 30-39; hadoop-local every 3rd of them
    args = options("--synthetic", "40", "--engines", "hadoop-local,vivace", "--jobs", "all",
                   "--peer-sample", "3", "--segment", "60")
    path = swim_study.write_spec(args, tmp_path / "studies")
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    queue = plan_queue(spec)
    assert [(q.engine, q.params["first_job"]) for q in queue] == [
        ("vivace", "0"), ("hadoop-local", "0"), ("vivace", "13"), ("hadoop-local", "13"), ("vivace", "30"),
        ("hadoop-local", "30")]
    log: list[str] = []
    factors = {"hadoop-local": 50.0, "vivace": 1.0}
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        def interrupted(name, lab_home, cluster):
            return SwimFakeEngine(name, log, factors[name], fail_after_runs=2)
        with pytest.raises(KeyboardInterrupt):
            runner(tmp_path, store, spec, interrupted).run()
        assert len(store.runs(workload="swim")) == 2

        def whole(name, lab_home, cluster):
            return SwimFakeEngine(name, log, factors[name])
        outcome = runner(tmp_path, store, spec, whole).run()
        assert (outcome.already_done, outcome.ran) == (2, len(queue) - 2)
        runs = store.runs(workload="swim")
        # every queue entry stored once: the interrupted third was run again, nothing twice
        assert sorted((r.engine, r.params["first_job"]) for r in runs) == \
            sorted((q.engine, q.params["first_job"]) for q in queue)
        result = swim.analyse(store, outcome.study_id, ["hadoop-local", "vivace"])
    peer, session = result.durations
    assert (session.jobs, session.failed) == (40, 0)
    assert (peer.jobs, peer.sample_every) == (14, 3)  # 0, 3, ..., 39
    [ratio] = result.latency_ratios
    assert ratio.matched == peer.jobs and ratio.mean == pytest.approx(50.0)


@pytest.mark.slow
def test_a_sampled_replay_in_segments_end_to_end(tmp_path):
    home = tmp_path / "home"
    argv = ("swim", "--synthetic", "9", "--engines", "vivace,hadoop-local", "--peer-sample", "4", "--segment", "20",
            "--scale", "1e-7", "--block-size", "64KiB", "--pool-partitions", "8", "--gap-compression", "10")
    done = lab(home, *argv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "latency ratios on the jobs both engines completed" in done.stdout
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        runs = store.runs(workload="swim")
        replayed = {engine: sorted(j.index for j in swim.swim_jobs(store, runs[0].study_id) if j.engine == engine)
                    for engine in ("vivace", "hadoop-local")}
        assert replayed == {"vivace": list(range(9)), "hadoop-local": [0, 4, 8]}
        # trace seconds 0-19 and 20-39: jobs 0-4 and 5-8, hadoop-local 0, 4 and 8
        assert sorted((r.engine, r.params["first_job"]) for r in runs) == [
            ("hadoop-local", "0"), ("hadoop-local", "5"), ("vivace", "0"), ("vivace", "5")]
        assert all(run.status == "succeeded" for run in runs)
    again = lab(home, *argv)  # everything stored: nothing runs again
    assert again.returncode == 0, again.stdout + again.stderr
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        assert len(store.runs(workload="swim")) == len(runs)
