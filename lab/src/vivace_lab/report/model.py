"""What the report needs of one run; callers adapt their database rows to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vivace_lab.metrics.sample import MetricSample


@dataclass
class ReportRun:
    """One run as the report shows it.

    ``jobs`` are the run record's jobs: dicts with at least ``phase``, ``start_ms`` and
    ``finish_ms`` (epoch ms, may be None; ``submit_ms``/``done_ms`` stand in for them then).
    """

    run_id: int | str
    workload: str
    engine: str
    status: str  # "succeeded" or "failed" (any case)
    failure: str | None = None
    duration_s: float | None = None
    params: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    started_ms: int | None = None
    finished_ms: int | None = None
    samples: list[MetricSample] = field(default_factory=list)
    jobs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.status.lower() == "succeeded"


def representative_run(runs: list[ReportRun]) -> ReportRun | None:
    """The successful run with samples whose time is nearest the median of the successful runs'
    times (the first such on a tie); None when no successful run has samples."""
    timed = sorted(r.duration_s for r in runs if r.succeeded and r.duration_s is not None)
    candidates = [r for r in runs if r.succeeded and r.duration_s is not None and r.samples]
    if not candidates:
        return None
    middle = len(timed) // 2
    median = timed[middle] if len(timed) % 2 else (timed[middle - 1] + timed[middle]) / 2
    return min(candidates, key=lambda r: abs(r.duration_s - median))
