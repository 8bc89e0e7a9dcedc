"""Compare runs, or groups of runs, side by side: durations with spread, ratios to the first
with bootstrap intervals, counters that differ, metric series overlaid."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vivace_lab.analysis.bootstrap import RatioEstimate, ratio_of_medians
from vivace_lab.analysis.summary import DurationStats, describe, noise_warnings
from vivace_lab.report.plots import engine_colours
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.charts import RatioBar, ratio_chart, timeline_chart
from vivace_lab.web.errors import not_found
from vivace_lab.web.filters import parse_filter
from vivace_lab.web.limits import INTEGER_MAX, whole_number
from vivace_lab.web.timeline import overlay_panels

router = APIRouter()

MAX_COUNTER_RUNS = 50  # runs per group whose counters are read (the first ones)
REPRESENTATIVE_BATCH = 20  # runs whose samples are counted at a time when choosing one
#: bootstrap resamples of a ratio: half the CLI's 2000; with groups of a thousand runs each
#: ratio costs ~0.1 s per thousand resamples
RESAMPLES = 1000
MAX_COUNTER_ROWS = 60
COUNTER_TOLERANCE = 0.01  # counters whose group medians differ by less are "the same"


@dataclass(frozen=True)
class Group:
    label: str
    runs: list[tuple[int, float]]  # (run id, duration s), successful runs
    stats: DurationStats
    ratio: RatioEstimate
    warnings: tuple[str, ...]


@router.get("/compare", response_class=HTMLResponse)
def compare_page(request: Request) -> HTMLResponse:
    params = request.query_params
    run_ids = _run_ids(params.getlist("run"))
    by = params.get("by") or ""
    with store_of(request).reading() as session:
        stored = queries.run_count(session)
        options = queries.filter_options(session)
        choices = queries.dimension_choices(session, params.get("workload") or None)
        if run_ids:
            grouped = _single_runs(request, run_ids)
        elif by:
            filt = parse_filter([(k, v) for k, v in params.multi_items() if k != "by"])
            grouped = queries.durations_by(session, filt, by)
        else:
            grouped = {}
        groups = _groups(grouped)
        counters = _counter_rows(session, groups)
        chosen = _representatives(session, groups)
        series = [(label, colour, queries.series(session, run_id), origin)
                  for label, colour, run_id, origin in chosen]
    chart = ratios = None
    ends = [(points[-1].end_ms - origin) / 1000 for _, _, points, origin in series if points]
    if ends:
        chart = timeline_chart(max(ends), overlay_panels(series), label="metrics overlaid")
    shown = [g for g in groups[1:] if g.ratio.ratio is not None]
    if shown:
        ratios = ratio_chart([RatioBar(g.label, g.ratio.ratio, g.ratio.low, g.ratio.high)
                              for g in shown], groups[0].label, "ratios to the first group",
                             higher_is_better=False)
    return render(request, "compare.html", groups=groups, by=by, run_ids=run_ids,
                  stored=stored, options=options, choices=choices, params=params,
                  counters=counters, chart=chart, ratios=ratios, chosen=chosen)


def _run_ids(values: list[str]) -> list[int]:
    ids = []
    for value in values:
        for part in value.split(","):
            if not part.strip():
                continue
            ids.append(whole_number("run", part.strip(), 1, INTEGER_MAX, what="a run id"))
    return list(dict.fromkeys(ids))


def _single_runs(request: Request, run_ids: list[int]) -> dict[str, list[tuple[int, float]]]:
    store = store_of(request)
    grouped = {}
    for run_id in run_ids:
        try:
            run = store.run(run_id)
        except KeyError:
            raise not_found(f"There is no run {run_id} in this database.") from None
        label = f"run {run_id} · {run.engine}"
        grouped[label] = [(run_id, run.duration_s)] if run.duration_s is not None and \
            run.status == "succeeded" else []
    return grouped


def _groups(grouped: dict[str, list[tuple[int, float]]]) -> list[Group]:
    labels = list(grouped)
    groups = []
    baseline = [d for _, d in grouped[labels[0]]] if labels else []
    for label in labels:
        durations = [d for _, d in grouped[label]]
        ratio = (RatioEstimate(1.0 if durations else None, None, None, 0.95) if label == labels[0]
                 else ratio_of_medians(durations, baseline, resamples=RESAMPLES))
        groups.append(Group(label, grouped[label], describe(durations), ratio,
                            noise_warnings(durations) if durations else ("no successful run",)))
    return groups


def _counter_rows(session, groups: list[Group]) -> list[tuple[str, list[float | None], float]]:
    """(counter, median per group, relative spread) of counters that differ between groups."""
    if len(groups) < 2:
        return []
    ids = [[run_id for run_id, _ in g.runs[:MAX_COUNTER_RUNS]] for g in groups]
    values = queries.run_phase_counters(session, [i for group in ids for i in group])
    names = sorted({name for per_run in values.values() for name in per_run})
    rows = []
    for name in names:
        medians = []
        for group in ids:
            found = [values[i][name] for i in group if name in values.get(i, {})]
            medians.append(statistics.median(found) if found else None)
        present = [m for m in medians if m is not None]
        if not present:
            continue
        low, high = min(present), max(present)
        spread = (high - low) / max(abs(high), abs(low), 1)
        if spread > COUNTER_TOLERANCE or len(present) < len(medians):
            rows.append((name, medians, spread))
    rows.sort(key=lambda r: (-r[2], r[0]))
    return rows[:MAX_COUNTER_ROWS]


def _representatives(session, groups: list[Group]) -> list[tuple[str, str, int, int]]:
    """(label, colour, run id, origin ms) of each group's run nearest its median that has samples."""
    colours = engine_colours([g.label for g in groups])
    chosen = []
    for g in groups:
        if g.stats.median is None:
            continue
        nearest = sorted(g.runs, key=lambda r: (abs(r[1] - g.stats.median), r[0]))
        for start in range(0, len(nearest), REPRESENTATIVE_BATCH):  # the nearest few, usually
            batch = [run_id for run_id, _ in nearest[start:start + REPRESENTATIVE_BATCH]]
            counts = queries.sample_counts(session, batch)
            found = next((run_id for run_id in batch if counts.get(run_id)), None)
            if found is not None:
                chosen.append((g.label, colours[g.label], found,
                               queries.run_start_ms(session, found)))
                break
    return chosen
