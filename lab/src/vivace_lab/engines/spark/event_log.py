"""Spark's event log (JSON, one listener event a line, written by Spark itself) as the run record's
jobs: per job its submission and completion, per task its attempt's launch and finish, and
counters summed from the tasks' metrics."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

COUNTER_GROUP = "spark"
_TASK_STATUS = {"Success": "SUCCEEDED", "TaskKilled": "KILLED"}

# (counter, path into "Task Metrics")
_METRICS = (
    ("INPUT_RECORDS", ("Input Metrics", "Records Read")),
    ("INPUT_BYTES", ("Input Metrics", "Bytes Read")),
    ("SHUFFLE_WRITE_RECORDS", ("Shuffle Write Metrics", "Shuffle Records Written")),
    ("SHUFFLE_WRITE_BYTES", ("Shuffle Write Metrics", "Shuffle Bytes Written")),
    ("SHUFFLE_READ_RECORDS", ("Shuffle Read Metrics", "Total Records Read")),
    ("SHUFFLE_READ_LOCAL_BYTES", ("Shuffle Read Metrics", "Local Bytes Read")),
    ("SHUFFLE_READ_REMOTE_BYTES", ("Shuffle Read Metrics", "Remote Bytes Read")),
    ("MEMORY_BYTES_SPILLED", ("Memory Bytes Spilled",)),
    ("DISK_BYTES_SPILLED", ("Disk Bytes Spilled",)),
    ("EXECUTOR_RUN_TIME_MS", ("Executor Run Time",)),
    ("EXECUTOR_CPU_TIME_NS", ("Executor CPU Time",)),
    ("JVM_GC_TIME_MS", ("JVM GC Time",)),
)


class EventLogError(RuntimeError):
    """The event log is missing or not Spark's."""


def read_events(event_dir: Path) -> list[dict[str, Any]]:
    logs = [p for p in event_dir.iterdir() if p.is_file() and not p.name.startswith(".")]
    if len(logs) != 1:
        raise EventLogError(f"expected one Spark event log in {event_dir}, found {sorted(p.name for p in logs)}")
    events = []
    for number, line in enumerate(logs[0].read_text().splitlines(), start=1):
        if line.strip():
            try:
                events.append(json.loads(line))
            except ValueError as e:
                raise EventLogError(f"{logs[0]}:{number}: not a JSON event ({e})") from None
    return events


def spark_properties(events: list[dict[str, Any]]) -> dict[str, str]:
    for event in events:
        if event.get("Event") == "SparkListenerEnvironmentUpdate":
            return dict(sorted(event.get("Spark Properties", {}).items()))
    return {}


def jobs(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The application's jobs in the run record's job shape, phase ``run``."""
    stage_job: dict[int, int] = {}
    stage_parents: dict[int, list[int]] = {}
    by_id: dict[int, dict[str, Any]] = {}
    counters: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for event in events:
        kind = event.get("Event")
        if kind == "SparkListenerJobStart":
            job_id = event["Job ID"]
            for stage in event.get("Stage Infos", []):
                stage_job[stage["Stage ID"]] = job_id
                stage_parents[stage["Stage ID"]] = stage.get("Parent IDs", [])
            by_id[job_id] = {
                "phase": "run", "job_id": f"spark_job_{job_id}",
                "name": _job_name(event), "status": "RUNNING",
                "submit_ms": event.get("Submission Time"), "start_ms": event.get("Submission Time"),
                "finish_ms": None, "done_ms": None, "maps": 0, "reduces": 0,
                "counters": {}, "tasks": []}
        elif kind == "SparkListenerJobEnd" and event["Job ID"] in by_id:
            job = by_id[event["Job ID"]]
            job["finish_ms"] = job["done_ms"] = event.get("Completion Time")
            result = (event.get("Job Result") or {}).get("Result")
            job["status"] = "SUCCEEDED" if result == "JobSucceeded" else "FAILED"
        elif kind == "SparkListenerTaskEnd" and event.get("Stage ID") in stage_job:
            job_id = stage_job[event["Stage ID"]]
            task = _task(event, bool(stage_parents.get(event["Stage ID"])))
            by_id[job_id]["tasks"].append(task)
            if task["status"] == "SUCCEEDED":
                by_id[job_id]["maps" if task["type"] == "MAP" else "reduces"] += 1
                for name, path in _METRICS:
                    counters[job_id][name] += _metric(event.get("Task Metrics") or {}, path)
    for job_id, job in by_id.items():
        job["counters"] = {COUNTER_GROUP: dict(counters[job_id])}
    return [by_id[job_id] for job_id in sorted(by_id)]


def _job_name(event: dict[str, Any]) -> str:
    properties = event.get("Properties") or {}
    stages = sorted(event.get("Stage Infos", []), key=lambda s: s["Stage ID"])
    return properties.get("spark.job.description") or (stages[-1]["Stage Name"] if stages else "")


def _task(event: dict[str, Any], after_shuffle: bool) -> dict[str, Any]:
    info = event.get("Task Info") or {}
    reason = (event.get("Task End Reason") or {}).get("Reason")
    # A stage's tasks read input (MAP) or shuffled data (REDUCE), as Hadoop's tasks do.
    return {"task_id": f"stage_{event['Stage ID']}_task_{info.get('Index')}_attempt_{info.get('Attempt')}",
            "type": "REDUCE" if after_shuffle else "MAP",
            "status": _TASK_STATUS.get(reason, "FAILED"),
            "start_ms": info.get("Launch Time"), "finish_ms": info.get("Finish Time")}


def _metric(metrics: dict[str, Any], path: tuple[str, ...]) -> int:
    value: Any = metrics
    for key in path:
        if not isinstance(value, dict):
            return 0
        value = value.get(key)
    return int(value) if isinstance(value, (int, float)) else 0
