"""The SWIM analysis (STAC's tables and figures) on a small store seeded with hand-made replays
(swimdata.py): four trace jobs on vivace and hadoop-local, one of them failing on hadoop-local."""

from __future__ import annotations

import pytest
from swimdata import TRACE_HISTOGRAMS, replay, seed_swim_study

from vivace_lab.analysis import swim
from vivace_lab.store import Store
from vivace_lab.study_summary import write_study_report


@pytest.fixture
def study(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        yield store, seed_swim_study(store)


def test_job_times_per_engine_count_failures_apart(study):
    store, study_id = study
    result = swim.analyse(store, study_id, ["vivace", "hadoop-local"])
    vivace, local = result.durations
    assert (vivace.engine, vivace.jobs, vivace.failed) == ("vivace", 4, 0)
    assert (vivace.min_s, vivace.mean_s, vivace.max_s, vivace.total_s) == (0.5, 1.875, 4.0, 7.5)
    # the failed job is counted, not averaged: (3 + 6 + 2) / 3
    assert (local.jobs, local.failed, local.min_s, local.max_s) == (4, 1, 2.0, 6.0)
    assert local.mean_s == pytest.approx(11 / 3)
    assert [(j.engine, j.index, j.failure) for j in result.failures] == [("hadoop-local", 2, "map failed: boom")]
    assert result.replayed_jobs == 4 and result.trace_jobs == 153


def test_per_job_ratios_and_total_time_ratio(study):
    store, study_id = study
    [pair] = swim.analyse(store, study_id, ["vivace", "hadoop-local"]).pairs
    # 3/1, 6/2, (job 2 failed on hadoop-local: unpaired), 2/0.5
    assert [(r.index, r.ratio) for r in pair.ratios] == [(0, 3.0), (1, 3.0), (3, 4.0)]
    assert pair.unpaired == 1
    assert (pair.min, pair.median, pair.max) == (3.0, 3.0, 4.0)
    assert pair.mean == pytest.approx(10 / 3)
    # (3 + 6 + 2) / (1 + 2 + 0.5)
    assert pair.total_time_ratio == pytest.approx(11 / 3.5)
    assert [(r.input_output_bytes, r.shuffle_bytes) for r in pair.ratios] == [(0, 0), (5, 10), (2_000_010, 10**9)]


def test_repeats_are_averaged_per_job_before_the_ratio():
    def job(engine, repeat, seconds):
        return swim.SwimJob(1, engine, repeat, 0, "job0", "SUCCEEDED" if seconds else "FAILED", None,
                            seconds, 0, 1, 1, 1)
    jobs = [job("a", 0, 1.0), job("a", 1, 3.0), job("b", 0, 3.0), job("b", 1, None)]
    [ratio], unpaired = swim.job_ratios(jobs, "a", "b")
    assert (ratio.baseline_s, ratio.other_s, ratio.ratio, unpaired) == (2.0, 3.0, 1.5, 0)


def test_size_histograms_in_decades_against_the_trace(study):
    store, study_id = study
    sizes = {h.kind: h for h in swim.analyse(store, study_id).sizes}

    def bins(histogram):
        return {i: c for i, c in enumerate(histogram.replayed) if c}
    # inputs 0, 5, 1500, 2e6 -> bins 0, 1 ([1, 10)), 4 ([1e3, 1e4)), 7 ([1e6, 1e7))
    assert bins(sizes["input"]) == {0: 1, 1: 1, 4: 1, 7: 1}
    assert bins(sizes["output"]) == {0: 2, 2: 2}  # 0, 0, 99, 10
    assert bins(sizes["input_output"]) == {0: 1, 1: 1, 4: 1, 7: 1}  # 0, 5, 1599, 2000010
    assert bins(sizes["shuffle"]) == {0: 1, 2: 1, 3: 1, 10: 1}  # 0, 10, 100, 1e9
    assert list(sizes["shuffle"].trace) == TRACE_HISTOGRAMS["shuffle"]


def test_ratio_histogram_bins_on_a_log_scale():
    edges, counts = swim.ratio_histogram([1.0, 10.0, 100.0], bins=2)
    assert edges == pytest.approx([1.0, 10.0, 100.0])
    assert counts == [1, 2]


@pytest.mark.integration
def test_the_report_has_a_swim_section(study, tmp_path):
    store, study_id = study
    report = write_study_report(store, study_id, "swim-test", tmp_path / "swim.html").read_text()
    assert 'id="swim"' in report
    assert "hadoop-local / vivace" in report
    assert "3.14" in report  # the total time ratio
    assert "map failed: boom" in report
    assert report.count("<svg") >= 3


def test_a_study_without_swim_runs_has_no_swim_analysis(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        study = store.open_study("empty", "name: empty", 1, [])
        assert swim.analyse(store, study.id) is None


def test_percentiles_interpolate_between_the_nearest_ranks():
    assert swim.percentile([], 50) is None
    assert swim.percentile([7.0], 99) == 7.0
    assert swim.percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5  # rank 1.5 of 1, 2, 3, 4
    assert swim.percentile([1.0, 2.0, 3.0, 4.0], 0) == 1.0
    assert swim.percentile([1.0, 2.0, 3.0, 4.0], 100) == 4.0


def test_latency_percentiles_per_engine_from_stored_replays(tmp_path):
    # 20 jobs of 1..20 s and one failed, stored over two runs (two segments of the trace)
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        study = store.open_study("latency", "name: latency", 1, [])
        store.record_run(replay("vivace-yarn", {i: float(i + 1) for i in range(10)}), study_id=study.id)
        store.record_run(replay("vivace-yarn", {**{i: float(i + 1) for i in range(10, 20)}, 20: None}),
                         study_id=study.id)
        [row] = swim.analyse(store, study.id).durations
    assert (row.jobs, row.failed, row.sample_every) == (21, 1, 1)
    assert row.mean_s == pytest.approx(10.5)
    # ranks 0.5 * 19 = 9.5, 0.95 * 19 = 18.05, 0.99 * 19 = 18.81 of 1..20
    assert row.p50_s == pytest.approx(10.5)
    assert row.p95_s == pytest.approx(19.05)
    assert row.p99_s == pytest.approx(19.81)


def test_a_sampled_engine_is_compared_on_the_matched_jobs_only(tmp_path):
    # the session ran trace jobs 0..19 in (index + 1) s; the peer every 5th (0, 5, 10, 15): 50, 50,
    # 50, 90 s, and job 20, which the session did not complete
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        study = store.open_study("sampled", "name: sampled", 1, [])
        store.record_run(replay("hadoop-yarn", {0: 50.0, 5: 50.0, 10: 50.0, 15: 90.0, 20: 70.0}, sample_every=5),
                         study_id=study.id)
        store.record_run(replay("vivace-yarn", {**{i: float(i + 1) for i in range(20)}, 20: None}),
                         study_id=study.id)
        result = swim.analyse(store, study.id, ["hadoop-yarn", "vivace-yarn"])
    peer, session = result.durations
    assert (peer.jobs, peer.failed, peer.sample_every, peer.mean_s) == (5, 0, 5, 62.0)
    assert (session.jobs, session.failed, session.sample_every) == (21, 1, 1)
    [ratio] = result.latency_ratios
    assert (ratio.numerator, ratio.denominator, ratio.matched) == ("hadoop-yarn", "vivace-yarn", 4)
    # matched: the session's 1, 6, 11, 16 s (mean 8.5, p50 8.5, p95 at rank 2.85: 11 + 0.85 * 5 =
    # 15.25) against 50, 50, 50, 90 s (mean 60, p50 50, p95 50 + 0.85 * 40 = 84)
    assert (ratio.numerator_mean_s, ratio.denominator_mean_s) == (60.0, 8.5)
    assert ratio.mean == pytest.approx(60 / 8.5)
    assert ratio.p50 == pytest.approx(50 / 8.5)
    assert ratio.p95 == pytest.approx(84 / 15.25)
    # 0.99 * 3 = 2.97: 11 + 0.97 * 5 = 15.85 and 50 + 0.97 * 40 = 88.8
    assert ratio.p99 == pytest.approx(88.8 / 15.85)


def test_latency_ratios_put_vivace_below_the_other_engine(study):
    store, study_id = study
    [ratio] = swim.analyse(store, study_id, ["vivace", "hadoop-local"]).latency_ratios
    assert swim.analyse(store, study_id, ["hadoop-local", "vivace"]).latency_ratios == (ratio,)
    assert swim.latency_pair("hadoop-yarn", "hadoop-tez") == ("hadoop-yarn", "hadoop-tez")
    # matched: jobs 0, 1, 3 (job 2 failed on hadoop-local): 3, 6, 2 s against 1, 2, 0.5 s
    assert (ratio.numerator, ratio.denominator, ratio.matched) == ("hadoop-local", "vivace", 3)
    assert ratio.mean == pytest.approx((11 / 3) / (3.5 / 3))
    assert ratio.p50 == pytest.approx(3.0 / 1.0)
