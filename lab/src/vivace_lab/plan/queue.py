"""The run queue of a study: every workload point x grid point x engine x repeat, in rounds.

Each round runs every combination once, engines side by side (A B A B ...), so drift on a shared
machine hits all systems alike instead of favouring whichever ran first.
"""

from __future__ import annotations

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.spec import StudySpec


def plan_queue(spec: StudySpec) -> list[PlannedRun]:
    queue: list[PlannedRun] = []
    for repeat in range(spec.repeats):
        for point in spec.workload_points:
            for overrides in spec.grid_points:
                for engine in spec.engines:
                    if engine in point.engines:
                        queue.append(PlannedRun(len(queue), point.workload, engine,
                                                dict(point.params), dict(overrides), repeat))
    return queue
