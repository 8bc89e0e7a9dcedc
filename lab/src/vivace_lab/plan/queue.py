"""The run queue of a study: every workload point x grid point x engine x repeat.

In ``rounds`` (the default) each round runs every combination once, engines side by side
(A B A B ...), so drift on a shared machine hits all systems alike instead of favouring whichever
ran first. In ``alternate`` (the timing mode) each workload point runs all its repeats before the
next, and every other repeat reverses the engines' order (A B, B A, A B ...): each engine runs as
often first as second, right after the other, on the same warm data.
"""

from __future__ import annotations

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.spec import StudySpec


def plan_queue(spec: StudySpec) -> list[PlannedRun]:
    queue: list[PlannedRun] = []

    def add(point, overrides: dict[str, str], repeat: int, engines) -> None:
        for engine in engines:
            if engine in point.engines:
                queue.append(PlannedRun(len(queue), point.workload, engine, dict(point.params),
                                        {**overrides, **point.overrides}, repeat))

    if spec.order == "alternate":
        for point in spec.workload_points:
            for overrides in spec.grid_points:
                for repeat in range(spec.repeats):
                    add(point, overrides, repeat, spec.engines if repeat % 2 == 0 else spec.engines[::-1])
        return queue
    for repeat in range(spec.repeats):
        for point in spec.workload_points:
            for overrides in spec.grid_points:
                add(point, overrides, repeat, spec.engines)
    return queue
