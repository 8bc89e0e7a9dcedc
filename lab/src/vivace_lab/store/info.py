"""What the store hands out: plain dataclasses, detached from the database."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from vivace_lab.store.coltypes import to_epoch_ms


@dataclass(frozen=True)
class ClusterInfo:
    id: int
    name: str
    description: dict[str, Any]
    hourly_price: float | None  # price of the whole cluster per hour; None when not known
    created: datetime

    @property
    def nodes(self) -> int:
        """Number of nodes the description names (``description["nodes"]``), 1 when it does not."""
        try:
            return max(1, int(self.description.get("nodes", 1)))
        except (TypeError, ValueError):
            return 1


@dataclass(frozen=True)
class StudyInfo:
    id: int
    name: str
    spec_text: str
    seed: int
    status: str  # pending | running | complete
    created: datetime
    planned: int  # runs in the queue
    done: int  # of which done

    @property
    def pending(self) -> int:
        return self.planned - self.done


@dataclass(frozen=True)
class TaskInfo:
    task_id: str
    type: str | None
    status: str | None
    start_ms: int | None
    finish_ms: int | None


@dataclass(frozen=True)
class JobInfo:
    phase: str | None
    job_id: str | None
    name: str | None
    status: str | None
    submit_ms: int | None
    start_ms: int | None
    finish_ms: int | None
    done_ms: int | None
    maps: int | None
    reduces: int | None
    counters: dict[str, dict[str, int]] = field(default_factory=dict)  # group -> name -> value
    tasks: list[TaskInfo] = field(default_factory=list)


@dataclass(frozen=True)
class RunInfo:
    """One stored run, as a list of runs shows it."""

    id: int
    study_id: int | None
    cluster: str
    workload: str
    engine: str
    status: str  # succeeded | failed
    failure: str | None
    started_at: datetime  # UTC
    finished_at: datetime  # UTC
    duration_s: float | None
    input_bytes: int | None
    validation_status: str | None
    validation_detail: str | None
    output_checksum: str | None
    repeat: int
    params: dict[str, str]
    overrides: dict[str, str]
    maps: int | None
    reduces: int | None
    io_sort_mb: int | None
    map_output_codec: str | None
    slots: int | None

    @property
    def started_ms(self) -> int:
        return to_epoch_ms(self.started_at)

    @property
    def finished_ms(self) -> int:
        return to_epoch_ms(self.finished_at)


@dataclass(frozen=True)
class RunDetail(RunInfo):
    """One stored run with everything but its metric samples (``Store.samples`` reads those)."""

    configuration: dict[str, str] = field(default_factory=dict)  # full effective configuration
    jobs: list[JobInfo] = field(default_factory=list)  # in the record's order
    record: dict[str, Any] | None = None  # the driver's run record as it was stored
