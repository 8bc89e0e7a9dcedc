"""The model page's chart: predicted against measured seconds, on log axes, with the line where
they are equal and the band of the model's interval around it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from vivace_lab.web.charts import Scale, Svg, log_ticks, tick_label


@dataclass(frozen=True)
class RunPoint:
    measured_s: float
    predicted_s: float
    colour: str
    label: str
    run_id: int


def predicted_measured_chart(points: Sequence[RunPoint], legend: Sequence[tuple[str, str]],
                             title: str, band: float | None = None, size: int = 340) -> Markup:
    """``band``: half-width of the interval in log time (dashed lines at ×/÷ e^band)."""
    width, height = size + 150, size + 40
    svg = Svg(width, height, title)
    values = [v for p in points for v in (p.measured_s, p.predicted_s) if v > 0] or [1.0]
    lo, hi = min(values) / 1.25, max(values) * 1.25
    left, top, right, bottom = 60, 22, 60 + size - 40, size - 10
    x = Scale(math.log10(lo), math.log10(hi), left, right)
    y = Scale(math.log10(lo), math.log10(hi), bottom, top)
    svg.text(left, top - 8, title, "start", "title")
    svg.add(f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" class="frame"/>')
    ticks = log_ticks(lo, hi)
    for tick in ticks:
        px, py = x(math.log10(tick)), y(math.log10(tick))
        svg.add(f'<line x1="{left}" y1="{py}" x2="{right}" y2="{py}" class="grid"/>')
        if len(ticks) <= 6 or _leading_digit(tick) in (1, 2, 5):  # labels that do not collide
            svg.text(px, bottom + 14, tick_label(tick), "middle")
            svg.text(left - 6, py + 3, tick_label(tick), "end")
    a, b = math.log10(lo), math.log10(hi)
    svg.add(f'<line x1="{x(a)}" y1="{y(a)}" x2="{x(b)}" y2="{y(b)}" class="axis equal"/>')
    if band and band / math.log(10) < b - a:
        shift = band / math.log(10)
        for x0, x1, sign in ((a, b - shift, 1), (a + shift, b, -1)):  # kept inside the frame
            svg.add(f'<line x1="{x(x0)}" y1="{y(x0 + sign * shift)}" x2="{x(x1)}" '
                    f'y2="{y(x1 + sign * shift)}" class="divider band"/>')
    for p in points:
        if p.measured_s <= 0 or p.predicted_s <= 0:
            continue
        svg.add(f'<a href="/runs/{p.run_id}"><circle cx="{x(math.log10(p.measured_s))}" '
                f'cy="{y(math.log10(p.predicted_s))}" r="3.5" fill="{p.colour}" fill-opacity="0.75" '
                f'class="point" data-key="{p.run_id}" data-x="{p.measured_s:.6g}" '
                f'data-y="{p.predicted_s:.6g}"><title>{escape(p.label)}</title></circle></a>')
    svg.text((left + right) / 2, height - 6, "measured, s", "middle")
    mid = (top + bottom) / 2
    svg.add(f'<text x="14" y="{mid}" transform="rotate(-90 14 {mid})" text-anchor="middle" '
            f'class="label">predicted, s</text>')
    for i, (name, colour) in enumerate(legend):
        ly = top + 8 + i * 16
        svg.add(f'<circle cx="{right + 16}" cy="{ly}" r="4" fill="{colour}"/>')
        svg.text(right + 26, ly + 4, name)
    return svg.markup(points=str(len(points)))


def _leading_digit(value: float) -> int:
    return int(f"{value:e}"[0])
