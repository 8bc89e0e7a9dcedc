"""STAC's table 3 from stored sleep runs: tasks per second per size and engine, and the rate over
the baseline engine's, read back from a real store; and the table in the study's outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rich.console import Console

from vivace_lab.analysis.sleep_test import sleep_test
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.study_summary import print_summary, write_study_report


def sleep_run(engine: str, maps: int, seconds: float, status: str = SUCCEEDED) -> RunResult:
    return RunResult(workload="sleep", engine=engine, cluster="lab-1x2",
                     params={"maps": str(maps), "reduces": "1", "map_ms": "1", "reduce_ms": "1"},
                     overrides={}, status=status, started_ms=1_000_000, finished_ms=1_000_000 + int(seconds * 1000),
                     duration_s=seconds if status == SUCCEEDED else None)


def stored_study(store, results: list[RunResult]) -> int:
    planned = [PlannedRun(i, r.workload, r.engine, r.params, r.overrides, i) for i, r in enumerate(results)]
    study = store.open_study("sleepy", "name: sleepy", 0, planned)
    for plan, result in zip(planned, results):
        store.record_run(result, study_id=study.id, planned_seq=plan.seq)
    return study.id


def test_tasks_per_second_per_size_and_engine_over_the_baseline(store):
    study = stored_study(store, [
        sleep_run("hadoop-yarn", 200, 400.0), sleep_run("hadoop-yarn", 200, 500.0), sleep_run("hadoop-yarn", 200, 450.0),
        sleep_run("hadoop-tez", 200, 40.0), sleep_run("hadoop-tez", 200, 50.0),
        sleep_run("hadoop-tez", 200, 1.0, status=FAILED),  # never counted
        sleep_run("hadoop-tez", 20, 10.0),  # a size without the baseline
    ])
    rows = sleep_test(store, study, ["hadoop-yarn", "hadoop-tez"])
    assert [(r.maps, r.engine, r.runs) for r in rows] == [(20, "hadoop-tez", 1), (200, "hadoop-yarn", 3),
                                                           (200, "hadoop-tez", 2)]
    small, yarn, tez = rows
    assert small.rate_vs_baseline is None and small.tasks_per_s == 2.0
    assert yarn.median_s == 450.0 and yarn.tasks_per_s == 200 / 450 and yarn.rate_vs_baseline == 1.0
    assert tez.median_s == 45.0 and tez.rate_vs_baseline == pytest.approx(10.0)
    assert yarn.size == "200 maps x 1 ms, 1 reduce x 1 ms"


@pytest.mark.integration
def test_the_study_prints_and_reports_the_table(store, tmp_path: Path):
    study = stored_study(store, [sleep_run("vivace", 2000, 2.0), sleep_run("hadoop-local", 2000, 32.0)])
    console = Console(record=True, width=200)
    print_summary(console, store, study, ["vivace", "hadoop-local"])
    text = console.export_text()
    assert "sleep test (STAC's table 3)" in text
    assert "1e+03" in text and "62.5" in text and "0.0625" in text  # vivace 1000/s, local 62.5/s
    report = write_study_report(store, study, "sleepy", tmp_path / "r.html").read_text()
    assert 'id="sleep-test"' in report and "<td class=\"num\">62.5</td>" in report
