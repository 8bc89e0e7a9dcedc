"""A run the study planner put in the queue."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlannedRun:
    """One run of the queue: a workload with its parameters, on one engine, at one grid point."""

    seq: int  # position in the queue
    workload: str
    engine: str
    params: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)  # Hadoop keys of the grid point
    repeat: int = 0

    @property
    def key(self) -> str:
        """Stable identity of the run, independent of its position in the queue."""
        return json.dumps(
            [self.workload, self.engine, sorted(self.params.items()),
             sorted(self.overrides.items()), self.repeat],
            separators=(",", ":"))
