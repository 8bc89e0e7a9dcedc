"""Server-drawn SVG charts for the web app: a task timeline with metric panels on one time axis,
overlaid series, a normalised cost/time scatter with its quadrants, and ratio bars.

Hand-written SVG rather than matplotlib (which the static report uses): a page must render in
milliseconds, and elements carry ``data-*`` attributes and ``<title>`` tooltips the browser shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 960
LEFT = 76
RIGHT = 150  # room for legends
PANEL_HEIGHT = 96
PANEL_GAP = 32
LANE_HEIGHT = 12
TASK_COLOURS = {"MAP": "#4e79a7", "REDUCE": "#f28e2b"}
FAILED_COLOUR = "#e15759"


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    value = first
    while value <= hi + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def tick_label(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 1e9:
        return f"{value / 1e9:g}G"
    if abs(value) >= 1e6:
        return f"{value / 1e6:g}M"
    if abs(value) >= 1e3:
        return f"{value / 1e3:g}k"
    return f"{value:g}"


@dataclass(frozen=True)
class Scale:
    lo: float
    hi: float
    start: float  # pixel of lo
    end: float  # pixel of hi

    def __call__(self, value: float) -> float:
        span = self.hi - self.lo
        fraction = (value - self.lo) / span if span else 0.0
        return round(self.start + fraction * (self.end - self.start), 1)


class Svg:
    def __init__(self, width: int, height: int, label: str) -> None:
        self.width, self.height, self.label = width, height, label
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, content: str, anchor: str = "start",
             cls: str = "label") -> None:
        self.add(f'<text x="{x}" y="{y}" text-anchor="{anchor}" class="{cls}">'
                 f'{escape(content)}</text>')

    def markup(self, **data: str) -> Markup:
        attrs = "".join(f' data-{k.replace("_", "-")}="{escape(v)}"' for k, v in data.items())
        return Markup(f'<svg class="chart" viewBox="0 0 {self.width} {self.height}" '
                      f'width="{self.width}" height="{self.height}" role="img" '
                      f'aria-label="{escape(self.label)}"{attrs}>' + "".join(self.parts)
                      + "</svg>")


# ---- series panels --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Series:
    label: str
    colour: str
    points: Sequence[tuple[float, float, float | None]]  # (x0, x1, y): y over [x0, x1]
    dashed: bool = False


@dataclass(frozen=True)
class Panel:
    title: str
    series: Sequence[Series]
    stacked: bool = False
    y_max: float | None = None  # fixed top (CPU: 100); else from the data
    scale: float = 1.0  # values are divided by this for the axis (bytes -> MB)


@dataclass(frozen=True)
class Bar:
    """A task attempt on the timeline: a lane (slot), its start and end in seconds."""

    lane: int
    start: float
    end: float
    kind: str  # MAP | REDUCE
    label: str
    failed: bool = False


@dataclass(frozen=True)
class Marker:
    """A vertical line across every panel (a job's start or end)."""

    x: float
    label: str
    dashed: bool = False


@dataclass
class _Layout:
    svg: Svg
    x: Scale
    top: float = 24.0  # room for the first panel's title


def timeline_chart(x_max: float, panels: Sequence[Panel], bars: Sequence[Bar] = (),
                   markers: Sequence[Marker] = (), label: str = "timeline",
                   x_title: str = "seconds from the run's start") -> Markup:
    """Optional Gantt of task attempts by lane on top, then one panel per metric, all on one x
    axis from 0 to ``x_max`` seconds."""
    lanes = max((b.lane for b in bars), default=-1) + 1
    gantt_height = _gantt_rows_height(lanes) + 24 if lanes else 0
    height = int(24 + gantt_height + len(panels) * (PANEL_HEIGHT + PANEL_GAP) + 34)
    svg = Svg(WIDTH, height, label)
    x = Scale(0.0, max(x_max, 1e-3), LEFT, WIDTH - RIGHT)
    layout = _Layout(svg, x)
    if lanes:
        _gantt(layout, bars, lanes)
    panel_tops = []
    for panel in panels:
        panel_tops.append(layout.top)
        _panel(layout, panel)
    bottom = layout.top - PANEL_GAP
    first_top = 24.0
    for marker in markers:
        px = x(marker.x)
        dash = ' stroke-dasharray="3,3"' if marker.dashed else ""
        svg.add(f'<line x1="{px}" y1="{first_top}" x2="{px}" y2="{bottom}" class="marker"{dash}>'
                f'<title>{escape(marker.label)}</title></line>')
    for tick in nice_ticks(0.0, x.hi, 10):
        px = x(tick)
        svg.add(f'<line x1="{px}" y1="{bottom}" x2="{px}" y2="{bottom + 4}" class="axis"/>')
        svg.text(px, bottom + 15, tick_label(tick), "middle")
    svg.text((LEFT + WIDTH - RIGHT) / 2, bottom + 30, x_title, "middle")
    return svg.markup(lanes=str(lanes), panels=str(len(panels)))


def _gantt(layout: _Layout, bars: Sequence[Bar], lanes: int) -> None:
    svg, x = layout.svg, layout.x
    top = layout.top
    svg.text(LEFT + 4, top - 8, "task attempts by slot", "start", "title")
    for bar in bars:
        colour = FAILED_COLOUR if bar.failed else TASK_COLOURS.get(bar.kind, "#999")
        x0, x1 = x(bar.start), x(bar.end)
        y = top + 12 + bar.lane * LANE_HEIGHT
        svg.add(f'<rect x="{x0}" y="{y}" width="{max(0.8, x1 - x0):.1f}" '
                f'height="{LANE_HEIGHT - 2}" fill="{colour}" class="task" '
                f'data-kind="{escape(bar.kind)}"><title>{escape(bar.label)}</title></rect>')
    bottom = top + 12 + _gantt_rows_height(lanes)
    svg.add(f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" class="axis"/>')
    legend = [("map", TASK_COLOURS["MAP"]), ("reduce", TASK_COLOURS["REDUCE"]),
              ("failed", FAILED_COLOUR)]
    for i, (name, colour) in enumerate(legend):
        ly = top + 12 + i * 14
        svg.add(f'<rect x="{WIDTH - RIGHT + 10}" y="{ly}" width="10" height="10" fill="{colour}"/>')
        svg.text(WIDTH - RIGHT + 24, ly + 9, name)
    layout.top = bottom + 24


def _gantt_rows_height(lanes: int) -> int:
    """The lanes' height, at least the legend's (three entries)."""
    return max(lanes * LANE_HEIGHT, 3 * 14)


def _panel(layout: _Layout, panel: Panel) -> None:
    svg, x = layout.svg, layout.x
    top, bottom = layout.top, layout.top + PANEL_HEIGHT
    values = [p[2] for s in panel.series for p in s.points if p[2] is not None]
    if panel.stacked and panel.series:
        totals: dict[tuple[float, float], float] = {}
        for s in panel.series:
            for x0, x1, v in s.points:
                totals[(x0, x1)] = totals.get((x0, x1), 0.0) + (v or 0.0)
        values = list(totals.values())
    data_max = max(values, default=0.0) / panel.scale
    y_hi = panel.y_max if panel.y_max is not None else (nice_ticks(0, data_max * 1.05 or 1, 4)[-1]
                                                         if data_max > 0 else 1.0)
    y_hi = max(y_hi, data_max) if panel.y_max is None else y_hi
    y = Scale(0.0, y_hi, bottom, top)
    svg.text(LEFT + 4, top - 8, panel.title, "start", "title")
    for tick in nice_ticks(0.0, y_hi, 4):
        py = y(tick)
        svg.add(f'<line x1="{LEFT}" y1="{py}" x2="{WIDTH - RIGHT}" y2="{py}" class="grid"/>')
        svg.text(LEFT - 6, py + 3, tick_label(tick), "end")
    baseline: dict[tuple[float, float], float] = {}
    for i, s in enumerate(panel.series):
        if panel.stacked:
            upper = []
            lower = []
            for x0, x1, v in s.points:
                base = baseline.get((x0, x1), 0.0)
                top_value = base + (v or 0.0) / panel.scale
                baseline[(x0, x1)] = top_value
                upper += [(x(x0), y(top_value)), (x(x1), y(top_value))]
                lower += [(x(x0), y(base)), (x(x1), y(base))]
            if upper:
                points = " ".join(f"{a},{b}" for a, b in upper + lower[::-1])
                svg.add(f'<polygon points="{points}" fill="{s.colour}" fill-opacity="0.85" '
                        f'class="area" data-series="{escape(s.label)}"/>')
        else:
            _step_line(svg, x, y, s, panel.scale)
        ly = top + i * 14
        svg.add(f'<rect x="{WIDTH - RIGHT + 10}" y="{ly}" width="10" height="10" '
                f'fill="{s.colour}"/>')
        svg.text(WIDTH - RIGHT + 24, ly + 9, s.label)
    svg.add(f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" class="axis"/>')
    layout.top = bottom + PANEL_GAP


def _step_line(svg: Svg, x: Scale, y: Scale, s: Series, scale: float) -> None:
    """The series as steps; gaps (None) break the line."""
    segments: list[list[str]] = [[]]
    for x0, x1, v in s.points:
        if v is None:
            segments.append([])
            continue
        py = y(v / scale)
        segments[-1] += [f"{x(x0)},{py}", f"{x(x1)},{py}"]
    dash = ' stroke-dasharray="4,3"' if s.dashed else ""
    for segment in segments:
        if segment:
            svg.add(f'<polyline points="{" ".join(segment)}" fill="none" stroke="{s.colour}" '
                    f'stroke-width="1.4" class="line" data-series="{escape(s.label)}"{dash}/>')


# ---- scatter with quadrants -----------------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    x: float  # normalised time, 0..1
    y: float  # normalised cost, 0..1
    colour: str
    label: str
    key: str  # stable identity for tests and links
    href: str | None = None


#: (name, x, y) of each quadrant's label; x grows with time, y with cost (up)
QUADRANTS = (("fast, cheap", 0.25, 0.25), ("slow, cheap", 0.75, 0.25),
             ("fast, expensive", 0.25, 0.75), ("slow, expensive", 0.75, 0.75))


def quadrant_chart(points: Sequence[Point], legend: Sequence[tuple[str, str]],
                   label: str = "cost against time") -> Markup:
    size = 460
    svg = Svg(size + 220, size + 50, label)
    x = Scale(0.0, 1.0, 60, 60 + size - 70)
    y = Scale(0.0, 1.0, size - 10, 10)
    for name, qx, qy in QUADRANTS:
        svg.text(x(qx), y(qy), name, "middle", "quadrant")
    svg.add(f'<line x1="{x(0.5)}" y1="{y(0)}" x2="{x(0.5)}" y2="{y(1)}" class="divider"/>')
    svg.add(f'<line x1="{x(0)}" y1="{y(0.5)}" x2="{x(1)}" y2="{y(0.5)}" class="divider"/>')
    svg.add(f'<rect x="{x(0)}" y="{y(1)}" width="{x(1) - x(0)}" height="{y(0) - y(1)}" '
            f'class="frame"/>')
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        svg.text(x(tick), y(0) + 14, f"{tick:g}", "middle")
        svg.text(x(0) - 6, y(tick) + 3, f"{tick:g}", "end")
    svg.text(x(0.5), y(0) + 32, "time (normalised: 0 fastest, 1 slowest)", "middle")
    svg.add(f'<text x="14" y="{y(0.5)}" transform="rotate(-90 14 {y(0.5)})" '
            f'text-anchor="middle" class="label">cost (normalised: 0 cheapest, 1 dearest)</text>')
    for p in points:
        circle = (f'<circle cx="{x(p.x)}" cy="{y(p.y)}" r="6" fill="{p.colour}" '
                  f'fill-opacity="0.8" class="point" data-key="{escape(p.key)}" '
                  f'data-x="{p.x:.4f}" data-y="{p.y:.4f}"><title>{escape(p.label)}</title></circle>')
        svg.add(f'<a href="{escape(p.href)}">{circle}</a>' if p.href else circle)
    for i, (name, colour) in enumerate(legend):
        ly = 16 + i * 16
        svg.add(f'<circle cx="{size + 16}" cy="{ly}" r="5" fill="{colour}"/>')
        svg.text(size + 26, ly + 4, name)
    return svg.markup(points=str(len(points)))


# ---- ratio bars -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RatioBar:
    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""


BETTER, WORSE = "#59a14f", "#e15759"


def ratio_chart(bars: Sequence[RatioBar], reference_label: str, label: str = "ratios",
                higher_is_better: bool = True) -> Markup:
    """Horizontal bars from 1 on a log scale, with intervals where given; green on the better
    side of 1 (above it for a speedup, below it for a ratio of times), red on the other."""
    height = 40 + 24 * len(bars)
    svg = Svg(WIDTH, height, label)
    values = [v for b in bars for v in (b.value, b.low, b.high) if v and v > 0]
    lo = min(values + [0.5]) * 0.9
    hi = max(values + [2.0]) * 1.1
    x = Scale(math.log10(lo), math.log10(hi), 260, WIDTH - 40)
    one = x(0.0)
    for i, bar in enumerate(bars):
        y = 20 + i * 24
        svg.text(250, y + 12, bar.label, "end")
        if bar.value and bar.value > 0:
            px = x(math.log10(bar.value))
            colour = BETTER if (bar.value >= 1) == higher_is_better else WORSE
            svg.add(f'<rect x="{min(one, px)}" y="{y}" width="{max(1.0, abs(px - one)):.1f}" '
                    f'height="16" fill="{colour}" class="ratio" data-value="{bar.value:.4f}">'
                    f'<title>{escape(bar.label)}: {bar.value:.3g}{escape(bar.note)}</title></rect>')
            if bar.low and bar.high and bar.low > 0:
                x0, x1 = x(math.log10(bar.low)), x(math.log10(bar.high))
                svg.add(f'<line x1="{x0}" y1="{y + 8}" x2="{x1}" y2="{y + 8}" class="interval"/>')
            svg.text(max(one, px) + 6, y + 12, f"{bar.value:.2f}×")
    svg.add(f'<line x1="{one}" y1="10" x2="{one}" y2="{height - 18}" class="axis"/>')
    svg.text(one, height - 4, f"1 = {reference_label}", "middle")
    return svg.markup(bars=str(len(bars)))


# ---- grouped bars (histograms) ------------------------------------------------------------------

@dataclass(frozen=True)
class BarSeries:
    label: str
    colour: str
    values: Sequence[float]  # one per category
    notes: Sequence[str] = ()  # each bar's tooltip; the value when absent


def bar_chart(categories: Sequence[str], series: Sequence[BarSeries], y_title: str,
              label: str = "histogram", title: str = "", width: int = WIDTH) -> Markup:
    """One group of bars per category (a histogram's bins), one bar per series, from 0 up."""
    height = 230
    svg = Svg(width, height, label)
    top, bottom = 28.0, height - 46.0
    data_max = max((v for s in series for v in s.values), default=0.0) or 1.0
    ticks = nice_ticks(0.0, data_max, 4)
    y_hi = ticks[-1] if ticks[-1] >= data_max else 2 * ticks[-1] - ticks[-2]  # one step more
    y = Scale(0.0, y_hi, bottom, top)
    if title:
        svg.text(LEFT + 4, top - 10, title, "start", "title")
    for tick in nice_ticks(0.0, y_hi, 4):
        svg.add(f'<line x1="{LEFT}" y1="{y(tick)}" x2="{width - RIGHT}" y2="{y(tick)}" '
                f'class="grid"/>')
        svg.text(LEFT - 6, y(tick) + 3, f"{tick:g}", "end")
    slot = (width - RIGHT - LEFT) / max(1, len(categories))
    bar = slot * 0.8 / max(1, len(series))
    every = math.ceil(max(len(c) for c in categories) * 7 / slot) if categories else 1  # ~7 px a letter
    for c, category in enumerate(categories):
        x0 = LEFT + c * slot + slot * 0.1
        for i, s in enumerate(series):
            value = s.values[c]
            note = s.notes[c] if s.notes else f"{value:g}"
            svg.add(f'<rect x="{x0 + i * bar:.1f}" y="{y(value)}" width="{max(0.8, bar - 1):.1f}" '
                    f'height="{max(0.0, y(0.0) - y(value)):.1f}" fill="{s.colour}" class="bar" '
                    f'data-series="{escape(s.label)}" data-bin="{c}" data-value="{value:.6g}">'
                    f'<title>{escape(s.label)}, {escape(category)}: {escape(note)}</title></rect>')
        if c % every == 0:
            svg.text(round(x0 + slot * 0.4, 1), bottom + 14, category, "middle")
    svg.add(f'<line x1="{LEFT}" y1="{bottom}" x2="{width - RIGHT}" y2="{bottom}" class="axis"/>')
    svg.add(f'<text x="16" y="{(top + bottom) / 2}" transform="rotate(-90 16 {(top + bottom) / 2})" '
            f'text-anchor="middle" class="label">{escape(y_title)}</text>')
    for i, s in enumerate(series):
        ly = top + i * 14
        svg.add(f'<rect x="{width - RIGHT + 10}" y="{ly}" width="10" height="10" fill="{s.colour}"/>')
        svg.text(width - RIGHT + 24, ly + 9, s.label)
    return svg.markup(bins=str(len(categories)), series=str(len(series)))


# ---- scatter on log axes ------------------------------------------------------------------------

@dataclass(frozen=True)
class LogPoint:
    x: float  # > 0 (callers draw 0 at 1)
    y: float  # > 0
    label: str
    key: str


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten within [lo, hi], with 2 and 5 times them over a few decades and every
    multiple within one."""
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    decades = math.log10(hi / lo)
    subs = tuple(range(1, 10)) if decades <= 1.5 else (1, 2, 5) if decades <= 3.5 else (1,)
    step = max(1, (last - first) // 8)
    return [m * 10.0 ** k for k in range(first, last + 1, step)
            for m in subs if lo <= m * 10.0 ** k <= hi * (1 + 1e-9)]


def log_scatter_chart(points: Sequence[LogPoint], colour: str, x_title: str, y_title: str,
                      label: str = "scatter", reference_y: float | None = 1.0,
                      width: int = 470) -> Markup:
    """Points on log x and log y axes, with a horizontal line at ``reference_y``."""
    height = 300
    svg = Svg(width, height, label)
    xs = [p.x for p in points] or [1.0]
    ys = [p.y for p in points] + ([reference_y] if reference_y else []) or [1.0]
    x_lo, x_hi = 10 ** math.floor(math.log10(min(xs))), 10 ** math.ceil(math.log10(max(xs)) + 1e-9)
    y_lo, y_hi = min(ys) / 1.2, max(ys) * 1.2
    x = Scale(math.log10(x_lo), math.log10(x_hi), 66, width - 16)
    y = Scale(math.log10(y_lo), math.log10(y_hi), height - 50, 12)
    svg.add(f'<rect x="{x.start}" y="{y.end}" width="{x.end - x.start}" '
            f'height="{y.start - y.end}" class="frame"/>')
    for tick in log_ticks(x_lo, x_hi):
        px = x(math.log10(tick))
        svg.add(f'<line x1="{px}" y1="{y.start}" x2="{px}" y2="{y.start + 4}" class="axis"/>')
        svg.text(px, y.start + 15, tick_label(tick), "middle")
    for tick in log_ticks(y_lo, y_hi):
        py = y(math.log10(tick))
        svg.add(f'<line x1="{x.start}" y1="{py}" x2="{x.end}" y2="{py}" class="grid"/>')
        svg.text(x.start - 6, py + 3, f"{tick:g}×", "end")
    if reference_y:
        py = y(math.log10(reference_y))
        svg.add(f'<line x1="{x.start}" y1="{py}" x2="{x.end}" y2="{py}" class="axis"/>')
    for p in points:
        svg.add(f'<circle cx="{x(math.log10(p.x))}" cy="{y(math.log10(p.y))}" r="4" '
                f'fill="{colour}" fill-opacity="0.75" class="point" data-key="{escape(p.key)}" '
                f'data-x="{p.x:g}" data-y="{p.y:.6g}"><title>{escape(p.label)}</title></circle>')
    svg.text((x.start + x.end) / 2, height - 16, x_title, "middle")
    svg.add(f'<text x="14" y="{(y.start + y.end) / 2}" '
            f'transform="rotate(-90 14 {(y.start + y.end) / 2})" text-anchor="middle" '
            f'class="label">{escape(y_title)}</text>')
    return svg.markup(points=str(len(points)))
