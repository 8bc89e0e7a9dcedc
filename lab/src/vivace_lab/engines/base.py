"""What every engine adapter offers the study runner."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import RunResult


class EngineUnavailable(RuntimeError):
    """The engine could not be started (port taken, out of disk, not installed...)."""


@dataclass(frozen=True)
class RunSettings:
    """Settings shared by every run of a study."""

    lab_home: Path  # generated data and run folders live under it
    cluster: str  # name of the hardware description runs are stored under
    heap: str = "2g"  # heap of the JVM that runs the tasks in-process (vivace, hadoop-local)
    sample_interval_s: float = 1.0
    on_progress: Callable[[str], None] | None = None  # gets the driver's latest progress line
    machine: dict = field(default_factory=dict)  # description of the machine ``cluster`` names
    lustre_root: Path | None = None  # set: vivace and hadoop-local keep data and output on lustre:// there


class Engine(ABC):
    """Runs workloads on one system. ``open`` starts what lives across runs (a mini-cluster)."""

    name: str

    def open(self) -> None:
        """Start long-lived services; raise EngineUnavailable with the reason when that fails."""

    def close(self) -> None:
        """Stop what ``open`` started."""

    @abstractmethod
    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        """Run one planned run, its output validated; failures come back as a failed result."""
