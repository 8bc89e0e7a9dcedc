"""A study's report: one self-contained static HTML file (inline SVG plots and CSS, no script)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from vivace_lab.analysis.sleep_test import SleepTestRow
from vivace_lab.analysis.summary import SummaryRow
from vivace_lab.analysis.swim import PairSummary, SwimAnalysis
from vivace_lab.report import formatting, plots, swim_plots
from vivace_lab.report.model import ReportRun, representative_run


@dataclass(frozen=True)
class MetricsSection:
    """One workload's metric time series: the figure, or why there is none."""

    workload: str
    runs: list[ReportRun]  # the representative run of each engine that has one
    svg: Markup | None


def write_report(
    path: str | Path,
    study_name: str,
    runs: Sequence[ReportRun],
    summary_rows: Sequence[SummaryRow],
    generated_at: datetime,
    swim: SwimAnalysis | None = None,
    sleep_test: Sequence[SleepTestRow] = (),
) -> Path:
    """Writes the report of one study to ``path`` (parents created) and returns the path."""
    engines = _ordered([r.baseline_engine for r in summary_rows[:1]],
                       [r.engine for r in summary_rows], [r.engine for r in runs])
    workloads = _ordered([r.workload for r in summary_rows], [r.workload for r in runs])
    colours = plots.engine_colours(engines)
    failed_by_group: dict[tuple[str, str], int] = {}
    for run in runs:
        if not run.succeeded:
            key = (run.workload, run.engine)
            failed_by_group[key] = failed_by_group.get(key, 0) + 1

    html = _environment().get_template("report.html").render(
        study_name=study_name,
        generated_at=generated_at.isoformat(timespec="seconds"),
        engines=engines,
        baseline=engines[0] if engines else None,
        runs=runs,
        succeeded=sum(1 for r in runs if r.succeeded),
        failed_runs=[r for r in runs if not r.succeeded],
        failed_by_group=failed_by_group,
        summary_rows=summary_rows,
        confidence=summary_rows[0].ratio.confidence if summary_rows else 0.95,
        run_times_svg=_svg(plots.run_times_figure(runs, workloads, colours), "run-times"),
        ratios_svg=_svg(plots.ratios_figure(summary_rows, colours), "ratios"),
        metrics=[_metrics_section(w, i, runs, engines, colours) for i, w in enumerate(workloads)],
        job_lines=plots.MAX_JOB_LINES,
        sleep_test=list(sleep_test),
        swim=swim,
        swim_pairs=[_swim_pair(pair, i, colours) for i, pair in enumerate(swim.pairs)] if swim else [],
        swim_sizes_svg=_svg(swim_plots.sizes_figure(swim.sizes), "swim-sizes") if swim else None,
    )
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


def _metrics_section(
    workload: str,
    index: int,
    runs: Sequence[ReportRun],
    engines: list[str],
    colours: dict[str, str],
) -> MetricsSection:
    chosen = []
    for engine in engines:
        run = representative_run([r for r in runs if r.workload == workload and r.engine == engine])
        if run is not None:
            chosen.append(run)
    svg = _svg(plots.metrics_figure(chosen, colours), f"metrics-{index}") if chosen else None
    return MetricsSection(workload, chosen, svg)


@dataclass(frozen=True)
class SwimPairSection:
    pair: PairSummary
    svg: Markup | None


def _swim_pair(pair: PairSummary, index: int, colours: dict[str, str]) -> SwimPairSection:
    figure = swim_plots.pair_figure(pair, colours.get(pair.other, "#1f77b4"))
    return SwimPairSection(pair, _svg(figure, f"swim-pair-{index}"))


def _svg(figure, name: str) -> Markup | None:
    # Our own matplotlib output, whose text matplotlib has escaped: safe to insert as markup.
    return Markup(plots.to_svg(figure, name)) if figure is not None else None


def _ordered(*sequences: Sequence[str]) -> list[str]:
    """The distinct items of the sequences, in order of first appearance."""
    return list(dict.fromkeys(item for seq in sequences for item in seq))


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("vivace_lab.report", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        seconds=formatting.seconds,
        mean_sd=formatting.mean_sd,
        factor=formatting.factor,
        ratio=formatting.ratio,
        interval=formatting.interval,
        percent=formatting.percent,
        pairs=formatting.pairs,
    )
    return env
