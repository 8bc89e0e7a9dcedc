"""The SWIM study page: STAC's tables and figures for one study's SWIM replays, from
``vivace_lab.analysis.swim`` (the static report's SWIM section draws the same analysis)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from vivace_lab.analysis.swim import (SIZE_BINS, SWIM, PairSummary, SizeHistogram, SwimAnalysis,
                                      analyse, ratio_histogram)
from vivace_lab.report.plots import engine_colours
from vivace_lab.report.swim_plots import SIZE_TITLES
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.charts import BarSeries, LogPoint, bar_chart, log_scatter_chart
from vivace_lab.web.errors import bad_parameter

router = APIRouter()

COMMAND = "./vivace lab swim"
REPLAYED_COLOUR, TRACE_COLOUR = "#4e79a7", "#bbbbbb"
SIZE_LABELS = ["0"] + [f"1e{k - 1}" for k in range(1, SIZE_BINS)]


@dataclass(frozen=True)
class PairCharts:
    pair: PairSummary
    histogram: Markup | None
    by_input_output: Markup | None
    by_shuffle: Markup | None


@router.get("/studies/swim", response_class=HTMLResponse)
def swim_page(request: Request) -> HTMLResponse:
    store = store_of(request)
    with store.reading() as session:
        with_swim = queries.studies_with(session, SWIM)
    studies = sorted((s for s in store.studies() if s.id in with_swim), key=lambda s: s.id)
    name = request.query_params.get("study")
    if name and name not in {s.name for s in studies}:
        raise bad_parameter("study", f"no study '{name}' with SWIM runs (there are: "
                                     f"{', '.join(s.name for s in studies) or 'none'})")
    study = next((s for s in studies if s.name == name), studies[-1] if studies else None)
    analysis = analyse(store, study.id) if study else None
    return render(request, "swim.html", command=COMMAND, studies=studies, study=study,
                  swim=analysis, pairs=_pair_charts(analysis) if analysis else [],
                  sizes=[_size_chart(h) for h in analysis.sizes] if analysis else [])


def _pair_charts(analysis: SwimAnalysis) -> list[PairCharts]:
    colours = engine_colours(analysis.engines)
    return [_charts(pair, colours[pair.other]) for pair in analysis.pairs]


def _charts(pair: PairSummary, colour: str) -> PairCharts:
    if not pair.ratios:
        return PairCharts(pair, None, None, None)
    name = f"{pair.other} / {pair.baseline}"
    edges, counts = ratio_histogram([r.ratio for r in pair.ratios])
    bins = [f"{low:.2g}–{high:.2g}×" for low, high in zip(edges, edges[1:])]
    histogram = bar_chart(bins, [BarSeries("jobs", colour, counts)], "jobs",
                          f"{name}: per-job ratios", f"job time on {name} (log bins)")

    def scatter(size_of, what: str) -> Markup:
        points = [LogPoint(max(size_of(r), 1), r.ratio,
                           f"job {r.index} {r.name}: {size_of(r)} bytes, {r.ratio:.3g}×",
                           str(r.index)) for r in pair.ratios]
        return log_scatter_chart(points, colour, f"{what}, bytes (scaled trace size; 0 at 1)",
                                 f"{name}", f"{name} against {what}")
    return PairCharts(pair, histogram, scatter(lambda r: r.input_output_bytes, "input + output"),
                      scatter(lambda r: r.shuffle_bytes, "shuffle"))


def _size_chart(histogram: SizeHistogram) -> Markup:
    replayed = sum(histogram.replayed) or 1
    series = [BarSeries(f"replayed ({sum(histogram.replayed)})", REPLAYED_COLOUR,
                        [c / replayed for c in histogram.replayed],
                        [f"{c} jobs" for c in histogram.replayed])]
    if histogram.trace:
        whole = sum(histogram.trace) or 1
        series.append(BarSeries(f"whole trace ({sum(histogram.trace)})", TRACE_COLOUR,
                                [c / whole for c in histogram.trace],
                                [f"{c} jobs" for c in histogram.trace]))
    title = SIZE_TITLES[histogram.kind]
    return bar_chart(SIZE_LABELS, series, "share of jobs", f"{title} sizes",
                     f"{title} bytes, scaled (decade from)", width=470)
