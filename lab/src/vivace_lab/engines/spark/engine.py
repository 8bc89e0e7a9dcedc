"""The spark engine: each run in three steps, so that Spark reads the input every engine reads and
its output is checked by the validators that check theirs.

1. ``vivace driver --phases prepare``: generates the input under the lab's data root, or reuses it
   (the data marker, docs/run-record.md), and records its path and checksum.
2. The PySpark job (``vivace_lab.engines.spark.job``) in a child process, sampled like the driver:
   local[N], reading that input, writing its output under the run folder.
3. ``vivace driver --phases validate --output``: the workload's own validator (TeraValidate, the
   word-count totals) and the output checksum the driver computes for its own runs. The sleep test
   has no output: it passes when the event log shows ``maps`` map and ``reduces`` reduce tasks
   succeeded.

The three are merged into one run record of the driver's shape: the prepare and validate phases'
jobs from the driver's records, the run phase's jobs and tasks from Spark's event log.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from vivace_lab.engines.base import Engine, EngineUnavailable, RunSettings
from vivace_lab.engines.driver import (base_result, driver_command, driver_env, fill_from_record,
                                       read_record, run_sampled)
from vivace_lab.engines.logs import log_tail
from vivace_lab.engines.spark.settings import SparkSettingError, spark_settings
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import RunResult

FRAMEWORK = "spark"
LOG_TAIL_LINES = 15
# Quiet, offline local mode on loopback: no web UI, no progress bar.
BASE_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
}


class SparkEngine(Engine):
    name = "spark"

    def open(self) -> None:
        try:
            import pyspark  # noqa: F401  (only whether it is installed)
        except ImportError:
            raise EngineUnavailable("pyspark is not installed in the lab's environment "
                                    "(`./vivace lab` installs the 'spark' extra)") from None

    def data_root(self, settings: RunSettings) -> str:
        return (settings.lab_home / "data").resolve().as_uri()

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        run_dir.mkdir(parents=True, exist_ok=True)
        started_ms = _now_ms()
        result = base_result(planned, self.name, settings, started_ms, started_ms)
        try:
            master, conf = spark_settings(planned.overrides)
        except SparkSettingError as e:
            result.failure = f"bad setting for the spark engine: {e}"
            return result
        work = run_dir / "output"
        prepared = self._driver(planned, run_dir, settings, "prepare", "--phases", "prepare")
        if prepared.get("status") != "SUCCEEDED":
            return fill_from_record(result, prepared)
        output = work / f"{planned.workload}-out"
        job = {"workload": planned.workload, "params": planned.params,
               "input": (prepared.get("data") or {}).get("path"), "output": str(output),
               "master": master, "conf": {**BASE_CONF, "spark.driver.memory": settings.heap,
                                          "spark.local.dir": str(run_dir / "spark-local"), **conf},
               "event_dir": str(run_dir / "spark-events")}
        (run_dir / "spark-job.json").write_text(json.dumps(job, indent=2))
        spark_log = run_dir / "spark.log"
        exit_code, samples = run_sampled(
            [sys.executable, "-m", "vivace_lab.engines.spark.job", str(run_dir / "spark-job.json"),
             str(run_dir / "spark-result.json")], spark_log, run_dir, _spark_env(settings), [],
            settings.sample_interval_s)
        ran = read_record(run_dir / "spark-result.json")
        if ran is None:
            ran = {"status": "FAILED", "failure": f"the Spark job exited with code {exit_code} without "
                                                 f"a result: {log_tail(spark_log, LOG_TAIL_LINES)}"}
        validated = None
        if ran["status"] == "SUCCEEDED" and planned.workload != "sleep":
            validated = self._driver(planned, run_dir, settings, "validate", "--phases", "validate",
                                     "--output", output.resolve().as_uri())
        shutil.rmtree(work, ignore_errors=True)
        record = _merge(planned, prepared, ran, validated)
        result.samples = samples
        (run_dir / "record.json").write_text(json.dumps(record, indent=2))
        return fill_from_record(result, record)

    def _driver(self, planned: PlannedRun, run_dir: Path, settings: RunSettings, phase: str,
                *options: str) -> dict[str, Any]:
        """The driver's record of one phase; a failed record naming the log when it wrote none."""
        record_path = run_dir / f"{phase}.json"
        log_path = run_dir / "driver.log"
        command = driver_command([], planned, record_path, self.data_root(settings),
                                 (run_dir / "output").resolve().as_uri(), *options)
        exit_code, _ = run_sampled(command, log_path, run_dir, driver_env(settings), [], None)
        record = read_record(record_path)
        if record is None:
            return {"status": "FAILED", "failure": {
                "phase": phase, "message": f"the driver exited with code {exit_code} without a "
                                           f"record: {log_tail(log_path, LOG_TAIL_LINES)}"}}
        return record


def _merge(planned: PlannedRun, prepared: dict, ran: dict, validated: dict | None) -> dict[str, Any]:
    """One record of the driver's shape (docs/run-record.md) for the three steps."""
    failure = None
    if ran["status"] != "SUCCEEDED":
        failure = {"phase": "run", "message": ran.get("failure")}
    elif validated is not None and validated.get("failure"):
        failure = validated["failure"]
    if planned.workload == "sleep":
        validation = _sleep_validation(planned, ran) if failure is None else None
        if validation is not None and validation["status"] != "PASSED":
            failure = {"phase": "validate", "message": validation["detail"]}
    else:
        validation = (validated or {}).get("validation")
    if validation is None:
        validation = {"status": "SKIPPED", "detail": f"the {failure['phase']} phase failed",
                      "output_checksum": None, "output_bytes": None}
    return {
        "record_version": prepared.get("record_version", 1), "workload": planned.workload,
        "params": prepared.get("params", dict(planned.params)), "framework": FRAMEWORK,
        "default_fs": prepared.get("default_fs"), "data_root": prepared.get("data_root"),
        "work_root": prepared.get("work_root"), "phases": ["prepare", "run", "validate"],
        "output": None, "overrides": dict(planned.overrides),
        "configuration": ran.get("configuration"),
        "status": "SUCCEEDED" if failure is None else "FAILED", "failure": failure,
        "started_ms": ran.get("started_ms"), "finished_ms": ran.get("finished_ms"),
        "data": prepared.get("data"), "validation": validation, "results": ran.get("results", {}),
        "jobs": [*_jobs_of(prepared, "prepare"), *ran.get("jobs", []), *_jobs_of(validated, "validate")],
    }


def _jobs_of(record: dict | None, phase: str) -> list[dict]:
    return [job for job in (record or {}).get("jobs", []) if job.get("phase") == phase]


def _sleep_validation(planned: PlannedRun, ran: dict) -> dict[str, Any]:
    """The sleep test ran ``maps`` map tasks and ``reduces`` reduce tasks, all successfully."""
    maps = sum(job["maps"] for job in ran.get("jobs", []))
    reduces = sum(job["reduces"] for job in ran.get("jobs", []))
    expected = (int(planned.params["maps"]), int(planned.params["reduces"]))
    passed = (maps, reduces) == expected
    detail = (f"sleep: {maps} map and {reduces} reduce tasks succeeded"
              + ("" if passed else f", expected {expected[0]} and {expected[1]}"))
    return {"status": "PASSED" if passed else "FAILED", "detail": detail,
            "output_checksum": None, "output_bytes": None}


def _spark_env(settings: RunSettings) -> dict[str, str]:
    """The lab's Python for Spark's workers too (they import the jobs' functions), loopback only;
    JAVA_HOME as the launcher exported it (Spark 4 needs Java 17+)."""
    env = driver_env(settings)
    env.update(PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               SPARK_LOCAL_IP="127.0.0.1", PYTHONUNBUFFERED="1")
    env.pop("SPARK_HOME", None)
    return env


def _now_ms() -> int:
    return int(time.time() * 1000)
