"""Exports: CSV and JSON tables of runs, and HiBench's report layout."""

from __future__ import annotations

import csv
import io
import json

import pytest
from rundata import failed_result, terasort_result

from vivace_lab.record import FAILED
from vivace_lab.store import export_runs, hibench_report

SORT_64_SNAPPY = {
    "mapreduce.task.io.sort.mb": "64",
    "mapreduce.map.output.compress": "true",
    "mapreduce.map.output.compress.codec": "org.apache.hadoop.io.compress.SnappyCodec",
}
SORT_16 = {"mapreduce.task.io.sort.mb": "16"}


def three_runs(store) -> list[int]:
    store.ensure_cluster("lab-2x8", {"nodes": 2, "cores_per_node": 8}, 0.8)
    a = store.record_run(terasort_result(cluster="lab-2x8", overrides=SORT_64_SNAPPY))
    b = store.record_run(terasort_result(cluster="lab-2x8", overrides=SORT_16, repeat=1,
                                         engine="hadoop-local", shift_ms=120_000))
    c = store.record_run(failed_result(cluster="lab-2x8"))
    return [a, b, c]


def test_csv(store):
    a, b, c = three_runs(store)
    out = io.StringIO()
    assert export_runs(store, "csv", out) == 3
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    header = rows[0]
    assert header[:5] == ["id", "study_id", "cluster", "workload", "engine"]
    # params of any run, then the grid's configuration keys (any run's overrides), sorted
    assert header[-7:] == [
        "param:bytes", "param:maps", "param:reduces", "param:rows",
        "conf:mapreduce.map.output.compress", "conf:mapreduce.map.output.compress.codec",
        "conf:mapreduce.task.io.sort.mb"]
    table = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [r["id"] for r in table] == [str(a), str(b), str(c)]
    first, second, failed = table
    assert first["engine"] == "vivace" and first["status"] == "succeeded"
    assert first["started"] == "2025-11-21T23:00:02.000Z"
    assert first["finished"] == "2025-11-21T23:00:03.734Z"
    assert first["duration_s"] == "1.734" and first["input_bytes"] == "10000000"
    assert first["validation_status"] == "PASSED"
    assert (first["maps"], first["io_sort_mb"], first["map_output_codec"]) == ("2", "64", "snappy")
    assert first["param:rows"] == "100000" and first["param:bytes"] == ""
    assert first["conf:mapreduce.task.io.sort.mb"] == "64"
    assert first["conf:mapreduce.map.output.compress.codec"].endswith("SnappyCodec")
    # a key this run's grid point did not set: its effective value from the configuration
    assert second["conf:mapreduce.task.io.sort.mb"] == "16"
    assert second["conf:mapreduce.map.output.compress"] == "true"
    assert second["repeat"] == "1" and second["engine"] == "hadoop-local"
    # no record: the value the study asked for; what it did not ask for stays empty
    assert failed["status"] == "failed" and failed["failure"].startswith("driver exited")
    assert failed["conf:mapreduce.task.io.sort.mb"] == "16"
    assert failed["conf:mapreduce.map.output.compress"] == ""
    assert failed["duration_s"] == "1.5" and failed["input_bytes"] == ""
    assert failed["param:bytes"] == "16777216"


def test_json_with_filters(store):
    a, b, c = three_runs(store)
    out = io.StringIO()
    assert export_runs(store, "json", out, workload="terasort") == 2
    rows = json.loads(out.getvalue())
    assert [r["id"] for r in rows] == [a, b]
    first = rows[0]
    assert first["params"] == {"rows": "100000", "maps": "2", "reduces": "1"}
    assert first["configuration"] == {
        "mapreduce.map.output.compress": "true",
        "mapreduce.map.output.compress.codec": "org.apache.hadoop.io.compress.SnappyCodec",
        "mapreduce.task.io.sort.mb": "64"}
    assert rows[1]["configuration"]["mapreduce.task.io.sort.mb"] == "16"
    assert first["duration_s"] == 1.734 and first["input_bytes"] == 10_000_000
    assert first["cluster"] == "lab-2x8" and first["status"] == "succeeded"
    assert first["started"] == "2025-11-21T23:00:02.000Z"

    out = io.StringIO()
    assert export_runs(store, "json", out, status="failed") == 1
    assert json.loads(out.getvalue())[0]["id"] == c
    with pytest.raises(ValueError, match="csv or json"):
        export_runs(store, "xml", io.StringIO())


def test_hibench_report(store):
    three_runs(store)
    # a run whose output failed validation is no success either
    bad = terasort_result(cluster="lab-2x8", shift_ms=300_000)
    bad.validation_status = "FAILED"
    store.record_run(bad)
    # a short run on a cluster without a description: one node, a duration under a second
    quick = terasort_result(cluster="laptop", engine="spark", shift_ms=-60_000)
    quick.duration_s, quick.input_bytes = 0.5, 1_000
    quick.workload = "word_count"
    store.record_run(quick)
    failed = terasort_result(cluster="lab-2x8", shift_ms=400_000)
    failed.status = FAILED
    store.record_run(failed)

    out = io.StringIO()
    assert hibench_report(store, out) == 3
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""
    assert lines[:-1] == [
        "Type         Date       Time     Input_data_size      Duration(s)          "
        "Throughput(bytes/s)  Throughput/node     ",
        # finished first: it was shifted a minute earlier
        "SparkWordCount 2025-11-21 22:59:03 1000                 0.500                "
        "2000                 2000                ",
        # 10,000,000 bytes in 1.734 s: 5,767,012.6 bytes/s truncated, as HiBench's bc does;
        # two nodes in the cluster description
        "VivaceTerasort 2025-11-21 23:00:03 10000000             1.734                "
        "5767012              2883506             ",
        "HadoopLocalTerasort 2025-11-21 23:02:03 10000000             1.734                "
        "5767012              2883506             ",
    ]
    # the columns start where HiBench's printf puts them when the type fits its 12 characters
    header = lines[0]
    assert [header.index(c) for c in ("Date", "Time", "Input_data_size", "Duration(s)",
                                      "Throughput(bytes/s)", "Throughput/node")] == [
        13, 24, 33, 54, 75, 96]

    out = io.StringIO()
    assert hibench_report(store, out, engine="vivace") == 1
    assert out.getvalue().splitlines()[1].startswith("VivaceTerasort ")
