"""One entry of a study's run queue, as the planner produces it and the store keeps it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlannedRun:
    """One run the study will make: a workload on an engine at one grid point, one repetition.

    ``seq`` is the position in the study's queue (runs are made in ``seq`` order). ``params``
    are the workload's parameters, ``overrides`` the Hadoop ``-D`` keys of this grid point;
    ``link`` the rate a real cluster's links are shaped to for it (None: no links to shape).
    """

    seq: int
    workload: str
    engine: str
    params: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    repeat: int = 0
    link: str | None = None

    @property
    def key(self) -> str:
        """Stable identity of what this run is (everything but ``seq``).

        Canonical JSON (sorted keys, no spaces), so the same grid point and repetition gives the
        same key across processes and Python versions; a resumed study matches its stored queue by
        it.
        """
        identity = {
            "workload": self.workload,
            "engine": self.engine,
            "params": {str(k): str(v) for k, v in self.params.items()},
            "overrides": {str(k): str(v) for k, v in self.overrides.items()},
            "repeat": self.repeat,
        }
        if self.link is not None:  # only then, so that the keys of stored studies stay theirs
            identity["link"] = self.link
        return json.dumps(
            identity,
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )

    def __hash__(self) -> int:  # the dict fields are not hashable; the key stands for them
        return hash((self.seq, self.key))
