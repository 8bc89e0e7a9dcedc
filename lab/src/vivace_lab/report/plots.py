"""The report's figures, drawn with matplotlib and returned as inline SVG (no pyplot, no files)."""

from __future__ import annotations

import io
import re
import statistics
from collections.abc import Sequence

import matplotlib
import matplotlib.colors
import matplotlib.ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from vivace_lab.analysis.summary import SummaryRow
from vivace_lab.report.model import ReportRun

GIB = 1024.0**3
MB = 1e6
MAX_JOB_LINES = 10  # more jobs than this are shown as one shaded span
CPU_SERIES = (  # field, label, colour
    ("cpu_user", "user", "#1f77b4"),
    ("cpu_system", "system", "#d62728"),
    ("cpu_iowait", "iowait", "#ff7f0e"),
    ("cpu_steal", "steal", "#7f7f7f"),
)
STYLE = {
    "svg.fonttype": "none",  # text stays text: small, searchable, drawn by the browser
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def engine_colours(engines: Sequence[str]) -> dict[str, str]:
    palette = matplotlib.colormaps["tab10"].colors
    return {e: matplotlib.colors.to_hex(palette[i % len(palette)]) for i, e in enumerate(engines)}


def to_svg(fig: Figure, name: str) -> str:
    """The figure as an ``<svg>`` element for an HTML page, its ids prefixed with ``name``."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": name, **STYLE}):
        fig.savefig(
            buf,
            format="svg",
            metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
        )
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]  # no XML declaration or DOCTYPE inside HTML
    svg = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg, count=2)  # implied by HTML

    def prefix_ids(tag: re.Match) -> str:  # inside tags only, never in the text of labels
        t = tag.group(0).replace("xlink:href=", "href=")
        t = re.sub(r' id="([^"]+)"', rf' id="{name}-\1"', t)
        t = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", t)
        return re.sub(r' href="#([^"]+)"', rf' href="#{name}-\1"', t)

    svg = re.sub(r"<[^>]+>", prefix_ids, svg)
    return svg.replace("<svg", f'<svg role="img" aria-label="{name}"', 1)


def _text(s: object) -> str:
    """A label shown as typed: a ``$`` would otherwise start matplotlib's math mode."""
    return str(s).replace("$", r"\$")


def _figure(width: float, height: float) -> Figure:
    with matplotlib.rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def run_times_figure(
    runs: Sequence[ReportRun], workloads: Sequence[str], colours: dict[str, str]
) -> Figure | None:
    """One panel per workload: every successful run's time per engine (in ``colours``' order),
    and the median as a black bar."""
    times: dict[tuple[str, str], list[float]] = {}
    for r in runs:
        if r.succeeded and r.duration_s is not None:
            times.setdefault((r.workload, r.engine), []).append(r.duration_s)
    shown = [w for w in workloads if any(w == workload for workload, _ in times)]
    if not shown:
        return None
    columns = min(len(shown), 3)
    rows = -(-len(shown) // columns)
    fig = _figure(3.4 * columns, 2.6 * rows)
    with matplotlib.rc_context(STYLE):
        axes = fig.subplots(rows, columns, squeeze=False).flatten()
        for ax, workload in zip(axes, shown):
            present = [e for e in colours if (workload, e) in times]
            for x, engine in enumerate(present):
                values = times[(workload, engine)]
                n = len(values)
                xs = [x + 0.36 * i / (n - 1) - 0.18 for i in range(n)] if n > 1 else [x]
                ax.scatter(xs, values, s=14, color=colours[engine], alpha=0.8)
                ax.hlines(statistics.median(values), x - 0.28, x + 0.28, color="black")
            ax.set_xticks(range(len(present)), [_text(e) for e in present])
            ax.set_xlim(-0.6, len(present) - 0.4)
            ax.set_ylim(bottom=0)
            ax.set_title(_text(workload))
            ax.set_ylabel("run time, s")
        for ax in axes[len(shown) :]:
            ax.set_visible(False)
    return fig


def ratios_figure(rows: Sequence[SummaryRow], colours: dict[str, str]) -> Figure | None:
    """Forest plot: each engine's ratio of medians to the baseline, with its interval."""
    shown = [r for r in rows if not r.is_baseline and r.ratio.ratio is not None][::-1]
    if not shown:
        return None
    fig = _figure(6.5, 0.9 + 0.32 * len(shown))
    with matplotlib.rc_context(STYLE):
        ax = fig.subplots()
        for y, row in enumerate(shown):
            est, colour = row.ratio, colours[row.engine]
            if est.low is not None and est.high is not None:
                # a percentile interval may miss the estimate on skewed data: no negative bars
                below, above = max(0.0, est.ratio - est.low), max(0.0, est.high - est.ratio)
                ax.errorbar(est.ratio, y, xerr=[[below], [above]], fmt="o", color=colour,
                            capsize=3)
            else:
                ax.plot(est.ratio, y, "o", mfc="white", color=colour)
        ax.set_yticks(range(len(shown)), [_text(f"{r.workload} · {r.engine}") for r in shown])
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}×"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_ylim(-0.6, len(shown) - 0.4)
        baseline = shown[0].baseline_engine
        ax.set_xlabel(_text(f"median time / median time of {baseline} (log scale)"))
    return fig


def metrics_figure(runs: Sequence[ReportRun], colours: dict[str, str]) -> Figure:
    """One column per run (an engine's representative run), one row per metric."""
    panels = ("CPU, % of machine", "engine processes, % of one core", "memory, GiB",
              "disk, MB/s", "network, MB/s")
    fig = _figure(4.0 * len(runs) + 1.4, 9.5)
    with matplotlib.rc_context(STYLE):
        axes = fig.subplots(len(panels), len(runs), squeeze=False, sharey="row")
        for col, run in enumerate(runs):
            _draw_run_metrics([axes[r][col] for r in range(len(panels))], run, colours[run.engine])
            axes[0][col].set_title(_text(f"{run.engine}: run {run.run_id}"
                                         + (f", {run.duration_s:.1f} s" if run.duration_s else "")))
            axes[-1][col].set_xlabel("seconds from the run's start")
        for row, label in enumerate(panels):
            axes[row][0].set_ylabel(label)
            axes[row][-1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7,
                                 frameon=False)
            if row > 0:  # after every column is drawn, so the shared scale fits them all
                axes[row][0].set_ylim(bottom=0)
    return fig


def _draw_run_metrics(axes: list[Axes], run: ReportRun, colour: str) -> None:
    samples = run.samples
    first_ms = samples[0].t_ms - 1000 * samples[0].interval_s  # the first interval's start
    origin_ms = run.started_ms if run.started_ms is not None else first_ms
    # A sample covers the interval ending at its time: draw it as a step over that interval.
    x = [(first_ms - origin_ms) / 1000.0] + [(s.t_ms - origin_ms) / 1000.0 for s in samples]

    def series(value) -> list[float]:
        ys = [value(s) for s in samples]
        return ys[:1] + ys

    def rate(field: str) -> list[float]:
        return series(lambda s: getattr(s, field) / MB / s.interval_s if s.interval_s > 0 else 0.0)

    cpu, proc, memory, disk, net = axes
    cpu.stackplot(x, [series(lambda s, f=f: getattr(s, f)) for f, _, _ in CPU_SERIES],
                  labels=[label for _, label, _ in CPU_SERIES],
                  colors=[c for _, _, c in CPU_SERIES], step="pre", alpha=0.85)
    cpu.set_ylim(0, 100)
    proc.plot(x, series(lambda s: s.proc_cpu_percent), drawstyle="steps-pre", color=colour,
              label="process tree")
    memory.plot(x, series(lambda s: s.mem_used_bytes / GIB), drawstyle="steps-pre",
                color="#2ca02c", label="machine used")
    memory.plot(x, series(lambda s: s.proc_rss_bytes / GIB), drawstyle="steps-pre", color=colour,
                label="process tree RSS")
    disk.plot(x, rate("disk_read_bytes"), drawstyle="steps-pre", color="#1f77b4", label="read")
    disk.plot(x, rate("disk_write_bytes"), drawstyle="steps-pre", color="#d62728", label="write")
    net.plot(x, rate("net_rx_bytes"), drawstyle="steps-pre", color="#1f77b4", label="rx")
    net.plot(x, rate("net_tx_bytes"), drawstyle="steps-pre", color="#d62728", label="tx")
    net.plot(x, rate("net_loopback_bytes"), drawstyle="steps-pre", color="#7f7f7f",
             linestyle="--", label="loopback")
    for ax in axes:
        _mark_jobs(ax, run.jobs, origin_ms)
        ax.set_xlim(x[0], x[-1])


def job_span_ms(job: dict) -> tuple[float | None, float | None]:
    """A job's start and finish (engine's times, else the client's)."""
    start = job.get("start_ms") if job.get("start_ms") is not None else job.get("submit_ms")
    finish = job.get("finish_ms") if job.get("finish_ms") is not None else job.get("done_ms")
    return start, finish


def _mark_jobs(ax: Axes, jobs: Sequence[dict], origin_ms: float) -> None:
    spans = [job_span_ms(j) for j in jobs]
    if len(spans) > MAX_JOB_LINES:
        starts = [s for s, _ in spans if s is not None]
        finishes = [f for _, f in spans if f is not None]
        if starts and finishes:
            ax.axvspan((min(starts) - origin_ms) / 1000, (max(finishes) - origin_ms) / 1000,
                       color="#999999", alpha=0.12, linewidth=0)
        return
    for start, finish in spans:
        if start is not None:
            ax.axvline((start - origin_ms) / 1000, color="#2ca02c", linewidth=0.9)
        if finish is not None:
            ax.axvline((finish - origin_ms) / 1000, color="#2ca02c", linewidth=0.9, linestyle=":")
