"""The end-of-study checks over stored runs: output checksums compared per input."""

from __future__ import annotations

import pytest
from rundata import terasort_result

from vivace_lab.study_summary import output_disagreements, study_summary


def _run(store, engine: str, input_checksum: str, output_checksum: str, duration_s: float) -> None:
    result = terasort_result(engine=engine)
    result.record["data"]["checksum"] = input_checksum
    result.output_checksum = output_checksum
    result.duration_s = duration_s
    store.record_run(result)


@pytest.mark.integration
def test_outputs_of_one_input_that_differ_between_engines_are_reported(store):
    _run(store, "vivace", "terasum:aaa", "sha256:out-1", 1.0)
    _run(store, "hadoop-local", "terasum:aaa", "sha256:out-2", 3.0)
    [line] = output_disagreements(store, study_id=None)
    assert "terasum:aaa" in line and "hadoop-local -> sha256:out-2" in line and "vivace -> sha256:out-1" in line


@pytest.mark.integration
def test_different_inputs_may_give_different_outputs(store):
    _run(store, "vivace", "terasum:aaa", "sha256:out-1", 1.0)
    _run(store, "hadoop-yarn", "terasum:bbb", "sha256:out-2", 3.0)
    _run(store, "hadoop-local", "terasum:aaa", "sha256:out-1", 3.0)
    assert output_disagreements(store, study_id=None) == []


@pytest.mark.integration
def test_the_summary_gives_each_engine_its_ratio_to_the_first(store):
    for engine, seconds in (("vivace", 1.0), ("hadoop-local", 3.0), ("vivace", 2.0), ("hadoop-local", 5.0)):
        _run(store, engine, "terasum:aaa", "sha256:out", seconds)
    rows = {row.engine: row for row in study_summary(store, study_id=None, engines=["vivace", "hadoop-local"])}
    assert rows["vivace"].is_baseline and rows["vivace"].stats.median == 1.5
    assert rows["hadoop-local"].ratio.ratio == 4.0 / 1.5
