"""Figures of the SWIM section: per-job ratios (histogram, against sizes) and job sizes."""

from __future__ import annotations

import matplotlib
import matplotlib.ticker
from matplotlib.figure import Figure

from vivace_lab.analysis.swim import SIZE_BINS, PairSummary, SizeHistogram, ratio_histogram
from vivace_lab.report.plots import STYLE, _figure, _text

SIZE_TITLES = {"input": "input", "output": "output", "input_output": "input + output", "shuffle": "shuffle"}


def _ratio_axis(ax, axis: str) -> None:
    getattr(ax, f"set_{axis}scale")("log")
    target = ax.xaxis if axis == "x" else ax.yaxis
    target.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    target.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}×"))
    target.set_minor_formatter(matplotlib.ticker.NullFormatter())


def pair_figure(pair: PairSummary, colour: str) -> Figure | None:
    """Three panels: the ratios' histogram (log bins), ratio against input+output size and
    against shuffle size (log axes; jobs of 0 bytes drawn at 1 byte)."""
    if not pair.ratios:
        return None
    ratios = [r.ratio for r in pair.ratios]
    fig = _figure(10.5, 3.0)
    with matplotlib.rc_context(STYLE):
        hist, io_ax, shuffle_ax = fig.subplots(1, 3)
        edges, counts = ratio_histogram(ratios)
        hist.stairs(counts, edges, fill=True, color=colour, alpha=0.8)
        _ratio_axis(hist, "x")
        hist.set_xlabel(_text(f"job time on {pair.other} / on {pair.baseline}"))
        hist.set_ylabel("jobs")
        for ax, sizes, label in ((io_ax, [r.input_output_bytes for r in pair.ratios], "input + output, bytes"),
                                 (shuffle_ax, [r.shuffle_bytes for r in pair.ratios], "shuffle, bytes")):
            ax.scatter([max(s, 1) for s in sizes], ratios, s=12, color=colour, alpha=0.8)
            ax.set_xscale("log")
            _ratio_axis(ax, "y")
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_xlabel(label + " (scaled trace size)")
            ax.set_ylabel("ratio")
    return fig


def sizes_figure(histograms: tuple[SizeHistogram, ...]) -> Figure | None:
    """One panel per size kind: the share of jobs per decade, replayed jobs against the trace."""
    if not histograms or not any(sum(h.replayed) for h in histograms):
        return None
    labels = ["0"] + [f"1e{k - 1}" for k in range(1, SIZE_BINS)]
    fig = _figure(10.5, 4.6)
    with matplotlib.rc_context(STYLE):
        axes = fig.subplots(2, 2).flatten()
        for ax, histogram in zip(axes, histograms):
            xs = list(range(SIZE_BINS))
            replayed = sum(histogram.replayed) or 1
            ax.bar([x - 0.2 for x in xs], [c / replayed for c in histogram.replayed], width=0.4,
                   color="#1f77b4", label=f"replayed ({sum(histogram.replayed)})")
            if histogram.trace:
                whole = sum(histogram.trace) or 1
                ax.bar([x + 0.2 for x in xs], [c / whole for c in histogram.trace], width=0.4,
                       color="#bbbbbb", label=f"whole trace ({sum(histogram.trace)})")
            ax.set_xticks(xs[::2], labels[::2])
            ax.set_title(SIZE_TITLES[histogram.kind] + " bytes, scaled (decade from)")
            ax.set_ylabel("share of jobs")
            ax.legend(frameon=False)
    return fig
