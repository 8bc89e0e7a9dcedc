"""The SWIM analysis (STAC's tables and figures) on a small store seeded with hand-made replays
(swimdata.py): four trace jobs on vivace and hadoop-local, one of them failing on hadoop-local."""

from __future__ import annotations

import pytest
from swimdata import TRACE_HISTOGRAMS, seed_swim_study

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
