"""The child process that runs one workload on Spark in local mode and writes what it saw as JSON:
``python -m vivace_lab.engines.spark.job JOB.json RESULT.json``.

JOB.json names the workload, its params, the input directory and the output directory, the master
and the Spark configuration. RESULT.json (written atomically, also when the job fails) holds the
run record's run-phase fields: status, failure, started_ms/finished_ms (the workload's jobs from
their first submission to the output's commit; the SparkContext's start, which launches the JVM, is
outside it as the driver's JVM start is), the Spark configuration, the jobs and tasks read from
Spark's event log, and results (the records and bytes written).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any

from vivace_lab.engines.spark import event_log, workloads


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m vivace_lab.engines.spark.job JOB.json RESULT.json", file=sys.stderr)
        return 2
    job = json.loads(Path(argv[0]).read_text())
    result: dict[str, Any] = {"status": "FAILED", "failure": None, "started_ms": None,
                              "finished_ms": None, "configuration": None, "results": {}, "jobs": []}
    event_dir = Path(job["event_dir"])
    try:
        run(job, event_dir, result)
        result["status"] = "SUCCEEDED"
    except Exception as e:  # reported in the result; the traceback goes to the log
        traceback.print_exc()
        result["failure"] = _message(e)
    try:
        events = event_log.read_events(event_dir)
        result["configuration"] = event_log.spark_properties(events)
        result["jobs"] = event_log.jobs(events)
    except (OSError, event_log.EventLogError) as e:
        if result["failure"] is None:
            result["status"], result["failure"] = "FAILED", f"Spark's event log: {e}"
    _write_atomically(Path(argv[1]), result)
    return 0 if result["status"] == "SUCCEEDED" else 1


def run(job: dict[str, Any], event_dir: Path, result: dict[str, Any]) -> None:
    from pyspark import SparkConf, SparkContext

    event_dir.mkdir(parents=True, exist_ok=True)
    conf = SparkConf().setMaster(job["master"]).setAppName(f"vivace-lab {job['workload']}")
    for key, value in job["conf"].items():
        conf.set(key, value)
    # One plain file, read once the context stopped (Spark 4 rolls and may compress by default).
    conf.set("spark.eventLog.enabled", "true").set("spark.eventLog.dir", event_dir.resolve().as_uri())
    conf.set("spark.eventLog.rolling.enabled", "false").set("spark.eventLog.compress", "false")
    sc = SparkContext(conf=conf)
    try:
        sc.setLogLevel("WARN")
        params = {k: int(v) for k, v in job["params"].items()}
        result["started_ms"] = _now_ms()
        try:
            if job["workload"] == "sleep":
                workloads.sleep(sc, params)
            else:
                output = Path(job["output"])
                program = workloads.terasort if job["workload"] == "terasort" else workloads.wordcount
                result["results"]["written"] = asdict(program(sc, params, job["input"], output))
        finally:
            result["finished_ms"] = _now_ms()
    finally:
        sc.stop()


def _message(e: BaseException) -> str:
    """The exception and its causes, one line each; for a Java exception through Py4J, the Java
    exception and its causes (the Python text is a generic 'error occurred while calling')."""
    java = getattr(e, "java_exception", None)
    parts = []
    while java is not None and len(parts) < 4:
        parts.append(str(java.toString()).strip().splitlines()[0])
        java = java.getCause()
    error: BaseException | None = e
    while not parts and error is not None and len(parts) < 4:
        first = (str(error).strip().splitlines() or [""])[0]
        parts.append(f"{type(error).__name__}: {first}")
        error = error.__cause__ or error.__context__
    return "; caused by ".join(parts)


def _write_atomically(path: Path, value: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(value, indent=2))
    os.replace(temporary, path)


def _now_ms() -> int:
    return int(time.time() * 1000)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
