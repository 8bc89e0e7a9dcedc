"""Each engine adapter on tiny data, through the real bench driver and the real Hadoop runners."""

from __future__ import annotations

import pytest

from vivace_lab.engines import RunSettings, create_engine
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED
from vivace_lab.workloads.catalogue import WORKLOADS

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration


def planned(workload: str, engine: str, overrides: dict | None = None, **params) -> PlannedRun:
    catalogue = WORKLOADS[workload]
    values = {name: str(value) for name, value in catalogue.defaults().items()}
    values.update({name: str(catalogue.param(name).parse(value)) for name, value in params.items()})
    return PlannedRun(0, workload, engine, values, overrides or {}, 0)


@pytest.fixture
def settings(tmp_path) -> RunSettings:
    return RunSettings(lab_home=tmp_path / "lab", cluster="test-machine", heap="1g", sample_interval_s=0.5)


@pytest.mark.parametrize("engine_name", ["vivace", "hadoop-local"])
def test_terasort_runs_validated_with_its_record_and_samples(engine_name, settings, tmp_path):
    engine = create_engine(engine_name, settings.lab_home)
    engine.open()
    try:
        result = engine.run(planned("terasort", engine_name, rows=2000), tmp_path / "run", settings)
    finally:
        engine.close()
    assert result.status == SUCCEEDED, result.failure
    assert result.validation_status == "PASSED"
    assert result.input_bytes == 200_000
    assert result.duration_s > 0
    assert result.output_checksum
    record = result.record
    assert record["framework"] == ("vivace" if engine_name == "vivace" else "local")
    assert [job["phase"] for job in record["jobs"]].count("run") == 1
    assert result.samples, "the sampler saw the driver's process"
    assert max(sample.proc_rss_bytes for sample in result.samples) > 0


def test_vivace_and_local_agree_on_the_output(settings, tmp_path):
    checksums = {}
    for name in ("vivace", "hadoop-local"):
        engine = create_engine(name, settings.lab_home)
        result = engine.run(planned("wordcount", name, bytes="200k"), tmp_path / name, settings)
        assert result.status == SUCCEEDED, result.failure
        checksums[name] = result.output_checksum
    assert checksums["vivace"] == checksums["hadoop-local"]


def test_a_run_whose_output_fails_validation_is_failed(settings, tmp_path):
    # WordCount sorted in reverse: every count is right, the order is not what the job promises.
    reverse = {"mapreduce.job.output.key.comparator.class":
               "org.apache.hadoop.mapreduce.lib.partition.KeyFieldBasedComparator",
               "mapreduce.partition.keycomparator.options": "-r"}
    engine = create_engine("vivace", settings.lab_home)
    result = engine.run(planned("wordcount", "vivace", reverse, bytes="100k"), tmp_path / "run", settings)
    assert result.status == FAILED
    assert result.validation_status == "FAILED"
    assert result.failure.startswith("validate")


def test_a_driver_that_cannot_run_gives_a_failed_result_with_the_reason(settings, tmp_path):
    engine = create_engine("vivace", settings.lab_home)
    result = engine.run(planned("sleep", "vivace", overrides={"mapreduce.framework.name": "no-such-engine"}),
                        tmp_path / "run", settings)
    assert result.status == FAILED
    assert result.failure.startswith("run: ") and "mapreduce.framework.name=no-such-engine" in result.failure


@pytest.mark.minicluster
def test_hadoop_yarn_runs_on_the_mini_cluster(yarn_engine, settings, tmp_path):
    result = yarn_engine.run(planned("sleep", "hadoop-yarn", maps=2, reduces=1), tmp_path / "run", settings)
    counted = yarn_engine.run(planned("wordcount", "hadoop-yarn", bytes="50k", maps=1), tmp_path / "wc", settings)
    assert result.status == SUCCEEDED, result.failure
    # The input was prepared on file:// and copied to HDFS: the very bytes the vivace engine reads.
    assert counted.status == SUCCEEDED, counted.failure
    assert counted.record["data"]["path"].startswith("hdfs://")
    local = create_engine("vivace", settings.lab_home).run(
        planned("wordcount", "vivace", bytes="50k", maps=1), tmp_path / "wc-vivace", settings)
    assert local.status == SUCCEEDED, local.failure
    assert local.record["data"]["checksum"] == counted.record["data"]["checksum"]
    assert local.output_checksum == counted.output_checksum
    assert result.record["framework"] == "yarn"
    run_jobs = [job for job in result.record["jobs"] if job["phase"] == "run"]
    assert len(run_jobs[0]["tasks"]) == 3  # YARN keeps task reports: 2 maps, 1 reduce
    assert max(sample.proc_count for sample in result.samples) > 1


@pytest.mark.parametrize("workload,params,result", [
    ("plasma-sort", {"bytes": "100k", "reduces": "4"}, "cpu"),
    ("finra-concurrency", {"bytes": "100k", "streams": "2", "queries": "1"}, "finra"),
])
def test_the_study_workloads_run_validated_with_their_results(workload, params, result, settings, tmp_path):
    engine = create_engine("vivace", settings.lab_home)
    run = engine.run(planned(workload, "vivace", **params), tmp_path / "run", settings)
    assert run.status == SUCCEEDED, run.failure
    assert run.validation_status == "PASSED"
    assert 102_400 <= run.input_bytes <= 102_400 * 1.01, "within 1% of the size asked for"
    assert run.record["results"][result], run.record["results"]
