"""What the lab keeps of one run: the outcome, the driver's run record and the metric samples."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vivace_lab.metrics.hosts import HostSample
from vivace_lab.metrics.sample import MetricSample

SUCCEEDED = "succeeded"
FAILED = "failed"


@dataclass
class RunResult:
    """One run of one workload on one engine with one configuration.

    ``record`` is the bench driver's run record (docs/run-record.md) when the engine produced one;
    ``None`` when the run failed before the driver could write it (the reason is in ``failure``).
    ``duration_s`` is the timed part: the run phase, end to end, JVM start excluded.
    """

    workload: str
    engine: str
    cluster: str  # name of the hardware/cluster description the run used
    params: dict[str, str]  # workload parameters (maps, rows, bytes...)
    overrides: dict[str, str]  # configuration keys the study set (-D key=value)
    status: str  # SUCCEEDED or FAILED (the constants above: lower case)
    started_ms: int
    finished_ms: int
    duration_s: float | None = None
    failure: str | None = None
    input_bytes: int | None = None
    validation_status: str | None = None  # PASSED | FAILED | SKIPPED | None
    validation_detail: str | None = None
    output_checksum: str | None = None
    repeat: int = 0
    record: dict[str, Any] | None = None
    samples: list[MetricSample] = field(default_factory=list)
    host_samples: list[HostSample] = field(default_factory=list)  # per host of a real cluster
