"""The spark engine on tiny inputs in a real local Spark: the output passes the driver's own
validators and equals, byte for byte, what the vivace engine writes from the same input."""

from __future__ import annotations

import pytest

from test_engines import planned
from vivace_lab.engines import RunSettings, create_engine
from vivace_lab.engines.spark.hadoop_text import hash_partition, text_hash, tokens
from vivace_lab.plan.hadoop_keys import HadoopKeys
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab.record import FAILED, SUCCEEDED


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> RunSettings:
    return RunSettings(lab_home=tmp_path_factory.mktemp("spark-lab"), cluster="test-machine",
                       heap="1g", sample_interval_s=0.5)


def run(engine_name: str, settings: RunSettings, tmp_path, workload: str, overrides=None, **params):
    engine = create_engine(engine_name, settings.lab_home)
    engine.open()
    try:
        return engine.run(planned(workload, engine_name, overrides, **params), tmp_path / engine_name,
                          settings)
    finally:
        engine.close()


@pytest.mark.spark
@pytest.mark.parametrize("workload, params", [
    ("terasort", {"rows": 3000, "reduces": 2}),
    ("wordcount", {"bytes": "100k", "reduces": 3}),
])
def test_spark_output_validates_and_equals_vivaces(workload, params, settings, tmp_path):
    spark = run("spark", settings, tmp_path, workload, **params)
    assert spark.status == SUCCEEDED, spark.failure
    assert spark.validation_status == "PASSED", spark.validation_detail
    vivace = run("vivace", settings, tmp_path, workload, **params)
    assert vivace.status == SUCCEEDED, vivace.failure
    assert spark.record["data"]["checksum"] == vivace.record["data"]["checksum"], "the same input"
    assert spark.output_checksum == vivace.output_checksum
    record = spark.record
    assert record["framework"] == "spark"
    assert record["configuration"]["spark.master"] == "local[2]"
    run_jobs = [job for job in record["jobs"] if job["phase"] == "run"]
    assert run_jobs and all(job["status"] == "SUCCEEDED" for job in run_jobs)
    assert sum(job["counters"]["spark"]["INPUT_BYTES"] for job in run_jobs) >= spark.input_bytes
    assert any(task["type"] == "REDUCE" for job in run_jobs for task in job["tasks"])
    assert record["results"]["written"]["parts"] == params["reduces"]
    assert record["started_ms"] <= run_jobs[0]["submit_ms"] <= run_jobs[-1]["done_ms"] <= record["finished_ms"]
    assert spark.samples and max(s.proc_rss_bytes for s in spark.samples) > 0


@pytest.mark.spark
def test_spark_sleep_runs_the_tasks_asked_for(settings, tmp_path):
    result = run("spark", settings, tmp_path, "sleep", {"spark.master": "local[1]"},
                 maps=3, reduces=2, map_ms=1, reduce_ms=1)
    assert result.status == SUCCEEDED, result.failure
    assert result.validation_detail == "sleep: 3 map and 2 reduce tasks succeeded"
    [job] = [job for job in result.record["jobs"] if job["phase"] == "run"]
    assert sorted(task["type"] for task in job["tasks"]) == ["MAP"] * 3 + ["REDUCE"] * 2
    assert result.record["configuration"]["spark.master"] == "local[1]"


@pytest.mark.spark
@pytest.mark.parametrize("overrides, message", [
    ({"mapreduce.task.io.sort.mb": "64"}, "'mapreduce.task.io.sort.mb' is not a Spark setting"),
    ({"spark.master": "yarn"}, "spark.master 'yarn' is not local[N]"),
])
def test_a_setting_spark_cannot_take_fails_the_run_naming_it(overrides, message, settings, tmp_path):
    result = run("spark", settings, tmp_path, "sleep", overrides)
    assert result.status == FAILED
    assert message in result.failure


@pytest.mark.spark
def test_a_setting_spark_rejects_fails_the_run_with_sparks_reason(settings, tmp_path):
    result = run("spark", settings, tmp_path, "sleep", {"spark.executor.heartbeatInterval": "soon"})
    assert result.status == FAILED
    assert result.failure.startswith("run: ")
    assert "soon" in result.failure, result.failure


def test_hadoop_text_matches_javas_hash_and_tokenizer():
    # Java's WritableComparator.hashBytes (Text.hashCode) of "hello" and of "é" (bytes above 0x7f
    # count as negative), printed by jshell; String.hashCode("hello") would be 99162322.
    assert text_hash(b"hello") == 127791473
    assert text_hash("é".encode()) == -1017 & 0xFFFFFFFF
    assert hash_partition(b"hello", 3) == 127791473 % 3
    assert hash_partition("é".encode(), 7) == ((-1017) & 0x7FFFFFFF) % 7
    assert tokens(b" a\tb\x0bc\r\n\fd ") == [b"a", b"b\x0bc", b"d"]


SPEC = """
name: s
engines: {engines}
workloads:
  - sleep: {{maps: 1}}
grid:
  {key}: [{value}]
"""


@pytest.mark.parametrize("engines, key, value, message", [
    ("[vivace, spark]", "spark.master", "'local[1]'", "'spark.master' is a Spark setting, but vivace"),
    ("[spark]", "mapreduce.task.io.sort.mb", "64", "engine spark: 'mapreduce.task.io.sort.mb' is not"),
])
@pytest.mark.integration
def test_a_study_giving_an_engine_keys_of_the_other_is_rejected(engines, key, value, message):
    keys = HadoopKeys({"mapreduce.task.io.sort.mb": "100"})
    with pytest.raises(SpecError, match=r"s.yaml:7: .*" + message.replace("[", r"\[").replace(".", r"\.")):
        parse_spec(SPEC.format(engines=engines, key=key, value=value), "s.yaml", keys)
    spec = parse_spec(SPEC.format(engines="[spark]", key="spark.master", value="'local[1]'"), "s.yaml", keys)
    assert spec.grid_points == ({"spark.master": "local[1]"},)


@pytest.mark.integration
def test_a_study_giving_spark_a_workload_it_does_not_run_is_rejected():
    spec = "name: s\nengines: [vivace, spark]\nworkloads:\n  - sort: {bytes: 1000}\n"
    with pytest.raises(SpecError, match=r"s\.yaml:4: engine 'spark' does not run sort "
                                        r"\(it runs: sleep, terasort, wordcount\)"):
        parse_spec(spec, "s.yaml", HadoopKeys({}))
