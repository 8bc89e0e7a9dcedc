"""Recording runs and reading every part of them back, on SQLite and PostgreSQL."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, UTC

import pytest
from rundata import failed_result, samples, terasort_record, terasort_result

from vivace_lab.store import RunDetail, RunInfo, Store


def test_round_trip_of_a_terasort_run(store):
    result = terasort_result(sample_count=30)
    record = terasort_record()
    run_id = store.record_run(result)

    [info] = store.runs()
    assert type(info) is RunInfo
    assert info.id == run_id
    assert info.study_id is None
    assert (info.cluster, info.workload, info.engine, info.status) == (
        "lab-1x2", "terasort", "vivace", "succeeded")
    assert info.failure is None
    assert info.started_at == datetime(2025, 11, 21, 23, 0, 2, tzinfo=UTC)
    assert info.finished_at == datetime(2025, 11, 21, 23, 0, 3, 734000, tzinfo=UTC)
    assert (info.started_ms, info.finished_ms) == (record["started_ms"], record["finished_ms"])
    assert info.duration_s == pytest.approx(1.734)
    assert info.input_bytes == 10_000_000
    assert info.validation_status == "PASSED"
    assert info.validation_detail == record["validation"]["detail"]
    assert info.output_checksum == record["validation"]["output_checksum"]
    assert info.repeat == 0
    assert info.params == {"rows": "100000", "maps": "2", "reduces": "1"}
    assert info.overrides == record["overrides"]
    # indexed columns derived from overrides / params / configuration
    assert (info.maps, info.reduces, info.io_sort_mb, info.map_output_codec, info.slots) == (
        2, 1, 64, "snappy", 4)

    detail = store.run(run_id)
    assert type(detail) is RunDetail
    assert detail.id == run_id and detail.workload == "terasort"
    # the full configuration: every key of the record, values as the driver wrote them
    assert detail.configuration == record["configuration"]
    assert len(detail.configuration) > 600
    assert detail.record == record

    assert [j.phase for j in detail.jobs] == ["prepare", "run", "validate"]
    for got, want in zip(detail.jobs, record["jobs"], strict=True):
        assert (got.job_id, got.name, got.status, got.maps, got.reduces) == (
            want["job_id"], want["name"], want["status"], want["maps"], want["reduces"])
        assert (got.submit_ms, got.start_ms, got.finish_ms, got.done_ms) == (
            want["submit_ms"], want["start_ms"], want["finish_ms"], want["done_ms"])
        assert got.counters == want["counters"]
        assert [(t.task_id, t.type, t.status, t.start_ms, t.finish_ms) for t in got.tasks] == [
            (t["task_id"], t["type"], t["status"], t["start_ms"], t["finish_ms"])
            for t in want["tasks"]]
    run_job = detail.jobs[1]
    assert run_job.counters["org.apache.hadoop.mapreduce.TaskCounter"]["SPILLED_RECORDS"] == 200_000
    assert run_job.counters["Shuffle Errors"]["WRONG_REDUCE"] == 0
    assert detail.jobs[0].counters[
        "org.apache.hadoop.examples.terasort.TeraGen$Counters"]["CHECKSUM"] == 214735802998321
    assert detail.jobs[2].start_ms is None and detail.jobs[2].tasks == []

    assert store.samples(run_id) == result.samples
    assert len(result.samples[0].cores) == 4


def test_runs_filters_and_order(store):
    a = store.record_run(terasort_result(engine="vivace"))
    b = store.record_run(terasort_result(engine="hadoop-local", repeat=1, shift_ms=60_000))
    c = store.record_run(failed_result(cluster="lab-2x8"))
    assert [r.id for r in store.runs()] == [a, b, c]
    assert [r.id for r in store.runs(engine="hadoop-local")] == [b, c]
    assert [r.id for r in store.runs(workload="terasort")] == [a, b]
    assert [r.id for r in store.runs(status="failed")] == [c]
    assert [r.id for r in store.runs(status="SUCCEEDED")] == [a, b]
    assert [r.id for r in store.runs(workload="terasort", engine="vivace",
                                     status="succeeded")] == [a]
    assert [r.id for r in store.runs(cluster="lab-2x8")] == [c]
    assert store.runs(workload="wordcount") == []


def test_a_run_that_failed_before_the_driver_wrote_a_record(store):
    run_id = store.record_run(failed_result())
    detail = store.run(run_id)
    assert detail.status == "failed"
    assert detail.failure.startswith("driver exited with status 1")
    assert detail.record is None
    assert detail.jobs == []
    assert detail.duration_s == pytest.approx(1.5)  # no timed duration given: the wall-clock span
    assert detail.validation_status == "SKIPPED"
    # no record: the configuration is what the study asked for
    assert detail.configuration == {"mapreduce.task.io.sort.mb": "16"}
    assert (detail.maps, detail.reduces, detail.io_sort_mb, detail.map_output_codec) == (
        2, 1, 16, None)
    assert store.samples(run_id) == []


def test_configuration_keeps_the_effective_value_and_marks_overrides(store_url):
    result = terasort_result(overrides={"mapreduce.task.io.sort.mb": "256"})
    # an override the engine did not honour: the configuration says what ran
    result.overrides["mapreduce.job.reduces"] = "8"
    with Store(store_url) as store:
        run_id = store.record_run(result)
        detail = store.run(run_id)
        assert detail.configuration["mapreduce.task.io.sort.mb"] == "256"
        assert detail.configuration["mapreduce.job.reduces"] == "1"
        assert detail.reduces == 8  # the indexed column follows what the study set
        # not among these overrides: from the record's configuration
        assert detail.map_output_codec == "snappy"
        values = store.config_values(["mapreduce.task.io.sort.mb", "io.file.buffer.size",
                                      "no.such.key"])
        assert values == {run_id: {"mapreduce.task.io.sort.mb": "256",
                                   "io.file.buffer.size": "4096"}}


def test_samples_keep_order_extremes_and_turn_non_finite_values_into_nan(store):
    base = samples(1763766000000, 3, cores=64)
    odd = [
        replace(base[2], t_ms=1763766000000),  # recorded out of order
        replace(base[0], cpu_steal=math.nan, proc_cpu_percent=math.inf,
                disk_write_bytes=2**62, proc_rss_bytes=0),
        base[1],
    ]
    result = terasort_result()
    result.samples = odd
    run_id = store.record_run(result)
    back = store.samples(run_id)
    assert [s.t_ms for s in back] == sorted(s.t_ms for s in odd)
    assert back[0] == odd[0]
    assert math.isnan(back[1].cpu_steal) and math.isnan(back[1].proc_cpu_percent)
    assert back[1].disk_write_bytes == 2**62
    assert len(back[1].cores) == 64 and back[1].cores == odd[1].cores
    assert back[2] == odd[2]


def test_unknown_run(store):
    with pytest.raises(KeyError, match="no run 999"):
        store.run(999)
    with pytest.raises(KeyError, match="no run 999"):
        store.samples(999)


def test_reopening_keeps_everything(store_url):
    with Store(store_url) as store:
        run_id = store.record_run(terasort_result())
        store.ensure_cluster("lab-1x2", {"nodes": 1}, 0.5)
    with Store(store_url) as store:  # schema creation is idempotent
        assert [r.id for r in store.runs()] == [run_id]
        assert store.clusters()[0].hourly_price == 0.5
        assert len(store.samples(run_id)) == 5
