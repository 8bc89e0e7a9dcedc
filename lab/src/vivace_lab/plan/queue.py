"""The run queue of a study: every workload point x grid point x engine x repeat.

In ``rounds`` (the default) each round runs every combination once, engines side by side
(A B A B ...), so drift on a shared machine hits all systems alike instead of favouring whichever
ran first. In ``alternate`` (the timing mode) each workload point runs all its repeats before the
next, and every other repeat reverses the engines' order (A B, B A, A B ...): each engine runs as
often first as second, right after the other, on the same warm data. Consecutive points of one
workload that give each engine its own parameters (their engines do not overlap) alternate as one.
"""

from __future__ import annotations

from vivace_lab.engines.names import CLUSTER_ENGINES
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.spec import StudySpec, WorkloadPoint


def plan_queue(spec: StudySpec) -> list[PlannedRun]:
    """The queue; on a real cluster whose spec lists several link rates, the whole queue once per
    rate, one rate after the other (shaping every host's link again takes a JVM per host)."""
    queue: list[PlannedRun] = []
    for link in spec.cluster.links or (None,):
        _plan(spec, link, queue)
    return queue


def _plan(spec: StudySpec, link: str | None, queue: list[PlannedRun]) -> None:
    def add(points: list[WorkloadPoint], overrides: dict[str, str], repeat: int, engines) -> None:
        for engine in engines:
            on_cluster = engine in CLUSTER_ENGINES
            if not on_cluster and link is not None and link != spec.cluster.links[0]:
                continue  # an engine on no cluster runs once, with the first rate's runs
            for point in points:
                if engine in point.engines:
                    queue.append(PlannedRun(len(queue), point.workload, engine, dict(point.params),
                                            {**overrides, **point.overrides}, repeat,
                                            link if on_cluster else None))

    if spec.order == "alternate":
        for group in _per_engine_groups(spec.workload_points):
            for overrides in spec.grid_points:
                for repeat in range(spec.repeats):
                    add(group, overrides, repeat, spec.engines if repeat % 2 == 0 else spec.engines[::-1])
        return
    for repeat in range(spec.repeats):
        for point in spec.workload_points:
            for overrides in spec.grid_points:
                add([point], overrides, repeat, spec.engines)


def _per_engine_groups(points) -> list[list[WorkloadPoint]]:
    """The points in order, consecutive ones of one workload and configuration whose engines do not
    overlap taken together."""
    groups: list[list[WorkloadPoint]] = []
    for point in points:
        last = groups[-1] if groups else None
        if last and last[0].workload == point.workload and last[0].overrides == point.overrides \
                and not any(set(p.engines) & set(point.engines) for p in last):
            last.append(point)
        else:
            groups.append([point])
    return groups
