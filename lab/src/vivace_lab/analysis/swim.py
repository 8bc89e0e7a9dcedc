"""The STAC analysis of SWIM replays, as plain data for the report and the web app.

Per engine: job durations min/mean/max (STAC's table 1) and the latency percentiles p50/p95/p99,
failures counted apart. Per engine pair (baseline = the study's first engine, as everywhere in the
lab): the per-job duration ratio ``other / baseline`` with its min/mean/median/max (table 2) and
histogram, against the job's input+output and shuffle sizes (figures 10-11), and the total
processing time ratio. For every two engines, the ratios of their mean, p50, p95 and p99 over the
jobs both completed (``latency_ratios``): Vivace's engine is the denominator, so a ratio is its
speed-up (otherwise the earlier engine in the order over the later); an engine that replayed a
systematic sample of the trace (``sample_every`` K, `vivace lab swim --peer-sample`) is compared
on those jobs only. Sizes of the replayed jobs against the whole trace, in decades (figures 1-6).

Percentiles interpolate linearly between the two nearest ranks (numpy's default, R's type 7): the
p-th of n sorted values is at 0-based rank ``p/100 * (n - 1)``.

A job's duration is the job client's: from just before submission to when it first saw the job
complete (``done_ms - submit_ms`` of the run record), as STAC measured it. A job that failed is
never averaged in: it counts as a failure of its engine and its index drops out of the pairs.
With repeats, a job's duration on an engine is the mean of its successful replays.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

SWIM = "swim"
SIZE_KINDS = ("input", "output", "input_output", "shuffle")
SIZE_BINS = 17  # bin 0: 0 bytes; bin k: [10^(k-1), 10^k) bytes, as the driver's histograms


@dataclass(frozen=True)
class SwimJob:
    """One replayed job on one engine: the driver's plan and outcome, and the client's times."""

    run_id: int
    engine: str
    repeat: int
    index: int
    name: str
    status: str  # SUCCEEDED, FAILED, KILLED; FAILED when never submitted
    failure: str | None
    duration_s: float | None  # only for succeeded jobs
    late_ms: int | None  # submission after its due time
    scaled_input_bytes: int  # the trace's sizes scaled, before the clamps
    scaled_shuffle_bytes: int
    scaled_output_bytes: int
    sample_every: int = 1  # the K of the run's systematic sample (1: every selected job)

    @property
    def succeeded(self) -> bool:
        return self.status == "SUCCEEDED" and self.duration_s is not None

    @property
    def input_output_bytes(self) -> int:
        return self.scaled_input_bytes + self.scaled_output_bytes


@dataclass(frozen=True)
class EngineDurations:
    """STAC's table 1 for one engine, with latency percentiles, over its successful jobs; failures
    apart. ``sample_every``: the K of the systematic sample its runs replayed (1: every job)."""

    engine: str
    jobs: int
    failed: int
    min_s: float | None
    mean_s: float | None
    max_s: float | None
    total_s: float  # the successful jobs' durations, summed
    p50_s: float | None = None
    p95_s: float | None = None
    p99_s: float | None = None
    sample_every: int = 1


@dataclass(frozen=True)
class LatencyRatio:
    """``numerator``'s latency statistics over ``denominator``'s, on the ``matched`` job indexes
    both engines completed (a job's time on an engine: the mean of its successful replays)."""

    numerator: str
    denominator: str
    matched: int
    numerator_mean_s: float | None
    denominator_mean_s: float | None
    mean: float | None
    p50: float | None
    p95: float | None
    p99: float | None


@dataclass(frozen=True)
class JobRatio:
    index: int
    name: str
    baseline_s: float
    other_s: float
    input_output_bytes: int
    shuffle_bytes: int

    @property
    def ratio(self) -> float:
        return self.other_s / self.baseline_s


@dataclass(frozen=True)
class PairSummary:
    """STAC's table 2 for ``other`` against ``baseline``, and the total processing time ratio
    (the paired jobs' summed durations, other over baseline)."""

    baseline: str
    other: str
    ratios: tuple[JobRatio, ...]
    unpaired: int  # job indexes without a success on both engines
    min: float | None
    mean: float | None
    median: float | None
    max: float | None
    total_time_ratio: float | None


@dataclass(frozen=True)
class SizeHistogram:
    """Jobs per size decade: the replayed jobs (each index once) and the whole trace."""

    kind: str
    replayed: tuple[int, ...]
    trace: tuple[int, ...] | None  # None when no run recorded the trace's histogram


@dataclass(frozen=True)
class SwimAnalysis:
    engines: tuple[str, ...]
    durations: tuple[EngineDurations, ...]
    pairs: tuple[PairSummary, ...]
    latency_ratios: tuple[LatencyRatio, ...]  # every two engines: the other over Vivace's, else earlier over later
    sizes: tuple[SizeHistogram, ...]
    trace_jobs: int | None
    replayed_jobs: int
    failures: tuple[SwimJob, ...]


def swim_jobs(store, study_id: int) -> list[SwimJob]:
    """Every replayed job of the study's swim runs, joined with its recorded job by job id."""
    return _read(store, study_id)[0]


def trace_histograms(store, study_id: int) -> dict | None:
    """The whole trace's size histograms, from the first swim run that recorded them."""
    return _read(store, study_id)[1]


def _read(store, study_id: int) -> tuple[list[SwimJob], dict | None]:
    """The replayed jobs and the trace's histograms, reading each run once, without its tasks and
    counters (a whole trace is tens of thousands of jobs)."""
    jobs, histograms = [], None
    for info in store.runs(study_id=study_id, workload=SWIM):
        detail = store.run(info.id, job_detail=False)
        results = _results(detail.record)
        if histograms is None and results.get("trace_size_histograms"):
            histograms = {"trace_jobs": results.get("trace_jobs"), **results["trace_size_histograms"]}
        every = int(results.get("sample_every") or (info.params or {}).get("sample_every") or 1)
        recorded = {job.job_id: job for job in detail.jobs if job.phase == "run"}
        for planned in results.get("jobs", []):
            jobs.append(_swim_job(info, planned, recorded.get(planned.get("job_id")), every))
    return jobs, histograms


def _results(record: dict | None) -> dict:
    return ((record or {}).get("results") or {}).get("swim") or {}


def _swim_job(info, planned: dict, recorded, sample_every: int = 1) -> SwimJob:
    status = planned.get("status") or (recorded.status if recorded else None) or "FAILED"
    duration = late = None
    if recorded is not None:
        if recorded.done_ms is not None and recorded.submit_ms is not None and status == "SUCCEEDED":
            duration = (recorded.done_ms - recorded.submit_ms) / 1000.0
        if recorded.submit_ms is not None and planned.get("due_ms") is not None:
            late = recorded.submit_ms - planned["due_ms"]
    return SwimJob(run_id=info.id, engine=info.engine, repeat=info.repeat, index=int(planned["index"]),
                   name=str(planned.get("name")), status=status, failure=planned.get("failure"),
                   duration_s=duration, late_ms=late,
                   scaled_input_bytes=int(planned.get("scaled_input_bytes") or 0),
                   scaled_shuffle_bytes=int(planned.get("scaled_shuffle_bytes") or 0),
                   scaled_output_bytes=int(planned.get("scaled_output_bytes") or 0),
                   sample_every=sample_every)


def percentile(values: Sequence[float], p: float) -> float | None:
    """The p-th percentile (0-100), linear between the nearest ranks; None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = p / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def engine_durations(jobs: Sequence[SwimJob], engine: str) -> EngineDurations:
    mine = [j for j in jobs if j.engine == engine]
    times = [j.duration_s for j in mine if j.succeeded]
    return EngineDurations(engine=engine, jobs=len(mine), failed=len(mine) - len(times),
                           min_s=min(times) if times else None,
                           mean_s=statistics.fmean(times) if times else None,
                           max_s=max(times) if times else None, total_s=sum(times),
                           p50_s=percentile(times, 50), p95_s=percentile(times, 95),
                           p99_s=percentile(times, 99),
                           sample_every=max((j.sample_every for j in mine), default=1))


def latency_pair(first: str, second: str) -> tuple[str, str]:
    """(numerator, denominator) of two engines' latency ratio: Vivace's engine below the other,
    so the ratio says how many times faster it is; else the first over the second."""
    if first.startswith("vivace") and not second.startswith("vivace"):
        return second, first
    return first, second


def latency_ratio(jobs: Sequence[SwimJob], numerator: str, denominator: str) -> LatencyRatio:
    """The two engines' mean and percentiles over the jobs both completed, the numerator's over the
    denominator's."""
    matched, _ = job_ratios(jobs, denominator, numerator)
    top = [r.other_s for r in matched]
    bottom = [r.baseline_s for r in matched]

    def ratio(stat) -> float | None:
        a, b = stat(top), stat(bottom)
        return a / b if a is not None and b else None

    def mean(values):
        return statistics.fmean(values) if values else None
    return LatencyRatio(numerator=numerator, denominator=denominator, matched=len(matched),
                        numerator_mean_s=mean(top), denominator_mean_s=mean(bottom), mean=ratio(mean),
                        p50=ratio(lambda v: percentile(v, 50)), p95=ratio(lambda v: percentile(v, 95)),
                        p99=ratio(lambda v: percentile(v, 99)))


def job_ratios(jobs: Sequence[SwimJob], baseline: str, other: str) -> tuple[list[JobRatio], int]:
    """Per job index with a success on both engines: the ratio of mean durations; and the number
    of indexes left out for lack of one."""
    times: dict[str, dict[int, list[float]]] = {baseline: defaultdict(list), other: defaultdict(list)}
    described: dict[int, SwimJob] = {}
    for job in jobs:
        if job.engine in times:
            described.setdefault(job.index, job)
            if job.succeeded:
                times[job.engine][job.index].append(job.duration_s)
    ratios = []
    for index in sorted(described):
        base, oth = times[baseline].get(index), times[other].get(index)
        if base and oth and statistics.fmean(base) > 0:
            job = described[index]
            ratios.append(JobRatio(index, job.name, statistics.fmean(base), statistics.fmean(oth),
                                   job.input_output_bytes, job.scaled_shuffle_bytes))
    return ratios, len(described) - len(ratios)


def pair_summary(jobs: Sequence[SwimJob], baseline: str, other: str) -> PairSummary:
    ratios, unpaired = job_ratios(jobs, baseline, other)
    values = [r.ratio for r in ratios]
    base_total = sum(r.baseline_s for r in ratios)
    return PairSummary(baseline=baseline, other=other, ratios=tuple(ratios), unpaired=unpaired,
                       min=min(values) if values else None,
                       mean=statistics.fmean(values) if values else None,
                       median=statistics.median(values) if values else None,
                       max=max(values) if values else None,
                       total_time_ratio=sum(r.other_s for r in ratios) / base_total if base_total > 0 else None)


def ratio_histogram(ratios: Sequence[float], bins: int = 12) -> tuple[list[float], list[int]]:
    """Counts of ratios in ``bins`` equal bins on a log scale between the smallest and largest
    ratio; (edges, counts), edges one longer than counts."""
    positive = [r for r in ratios if r > 0]
    if not positive:
        return [], []
    low, high = math.log10(min(positive)), math.log10(max(positive))
    if high - low < 1e-9:
        low, high = low - 0.05, high + 0.05
    width = (high - low) / bins
    edges = [10 ** (low + i * width) for i in range(bins + 1)]
    counts = [0] * bins
    for r in positive:
        counts[min(bins - 1, int((math.log10(r) - low) / width))] += 1
    return edges, counts


def size_bin(size: int) -> int:
    return 0 if size <= 0 else min(SIZE_BINS - 1, len(str(int(size))))


def size_histograms(jobs: Sequence[SwimJob], trace: dict | None) -> list[SizeHistogram]:
    by_index: dict[int, SwimJob] = {}
    for job in jobs:
        by_index.setdefault(job.index, job)
    sizes = {
        "input": [j.scaled_input_bytes for j in by_index.values()],
        "output": [j.scaled_output_bytes for j in by_index.values()],
        "input_output": [j.input_output_bytes for j in by_index.values()],
        "shuffle": [j.scaled_shuffle_bytes for j in by_index.values()],
    }
    out = []
    for kind in SIZE_KINDS:
        counts = [0] * SIZE_BINS
        for size in sizes[kind]:
            counts[size_bin(size)] += 1
        whole = tuple(int(c) for c in trace[kind]) if trace and kind in trace else None
        out.append(SizeHistogram(kind, tuple(counts), whole))
    return out


def analyse(store, study_id: int, engines: Sequence[str] | None = None) -> SwimAnalysis | None:
    """The study's SWIM analysis; None when it has no swim run."""
    jobs, trace = _read(store, study_id)
    if not jobs and not store.runs(study_id=study_id, workload=SWIM):
        return None
    order = list(engines) if engines else []
    order += [j.engine for j in jobs if j.engine not in order]
    order = [e for e in dict.fromkeys(order) if any(j.engine == e for j in jobs)]
    return SwimAnalysis(
        engines=tuple(order),
        durations=tuple(engine_durations(jobs, e) for e in order),
        pairs=tuple(pair_summary(jobs, order[0], other) for other in order[1:]),
        latency_ratios=tuple(latency_ratio(jobs, *latency_pair(a, b)) for i, a in enumerate(order)
                             for b in order[i + 1:]),
        sizes=tuple(size_histograms(jobs, trace)),
        trace_jobs=trace.get("trace_jobs") if trace else None,
        replayed_jobs=len({j.index for j in jobs}),
        failures=tuple(j for j in jobs if not j.succeeded),
    )
