"""The static HTML report, from synthetic runs."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from html.parser import HTMLParser

import pytest

from vivace_lab.analysis.summary import summarize
from vivace_lab.metrics.sample import CoreCpu, MetricSample
from vivace_lab.report.html import write_report
from vivace_lab.report.model import ReportRun, representative_run

T0 = 1_767_225_600_000  # 2026-01-01T00:00:00Z in epoch ms
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
ODD_NAME = "wc <big> & $x$"
OOM = "java.lang.OutOfMemoryError: <script>alert(1)</script> & more"


def samples(start_ms: int, seconds: int, busy: float) -> list[MetricSample]:
    return [
        MetricSample(
            t_ms=start_ms + 1000 * (i + 1),
            interval_s=1.0,
            cpu_user=busy,
            cpu_system=5.0,
            cpu_iowait=2.0,
            cpu_steal=0.0,
            cores=(CoreCpu(busy, 5.0, 2.0, 0.0, 93.0 - busy),) * 2,
            mem_used_bytes=(2 + i) * 1024**3,
            mem_available_bytes=8 * 1024**3,
            disk_read_bytes=10_000_000 * i,
            disk_write_bytes=20_000_000,
            net_rx_bytes=1000,
            net_tx_bytes=2000,
            net_loopback_bytes=5_000_000,
            proc_cpu_percent=150.0,
            proc_rss_bytes=512 * 1024**2,
            proc_count=3,
        )
        for i in range(seconds)
    ]


def run(
    run_id: int,
    workload: str,
    engine: str,
    duration: float | None,
    *,
    failed: str | None = None,
    status: str | None = None,
    with_samples: bool = True,
) -> ReportRun:
    start = T0 + 100_000 * run_id
    finish = start + int(1000 * (duration or 1.0))
    return ReportRun(
        run_id=run_id,
        workload=workload,
        engine=engine,
        status=status or ("failed" if failed else "succeeded"),
        failure=failed,
        duration_s=duration,
        params={"maps": "2", "rows": "1000"},
        overrides={"mapreduce.task.io.sort.mb": "64"} if engine == "hadoop-local" else {},
        started_ms=start,
        finished_ms=finish,
        samples=samples(start, int(duration or 1) + 1, 40.0) if with_samples else [],
        jobs=[{"phase": "run", "start_ms": start + 200, "finish_ms": finish - 100}],
    )


def study_runs() -> list[ReportRun]:
    return [
        run(1, "sleep", "vivace", 12.0),
        run(2, "sleep", "vivace", 12.5),
        run(3, "sleep", "vivace", 12.2),
        run(4, "sleep", "hadoop-local", 900.0, with_samples=False),
        run(5, "sleep", "hadoop-local", 912.0),
        run(6, "sleep", "hadoop-local", 920.0),
        run(7, "terasort", "vivace", 30.0),
        run(8, "terasort", "hadoop-local", 60.0),
        run(9, "terasort", "hadoop-local", None, failed=OOM),
        run(10, ODD_NAME, "vivace", 3.0, with_samples=False),
        run(11, ODD_NAME, "hadoop-local", None, status="FAILED", with_samples=False),
    ]


class Page(HTMLParser):
    """Collects what the tests look at and checks that elements nest."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: dict[str, int] = {}
        self.attrs: list[tuple[str, str]] = []
        self.ids: list[str] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += [(k, v or "") for k, v in attrs]
        self.ids += [v for k, v in attrs if k == "id"]
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "td":
            self._cell = []

    def handle_startendtag(self, tag, attrs) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += [(k, v or "") for k, v in attrs]
        self.ids += [v for k, v in attrs if k == "id"]

    def handle_endtag(self, tag) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        if tag == "td" and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Page]:
    """The report of ``study_runs()``, written once for the module: its text and its parse."""
    tmp_path = tmp_path_factory.mktemp("report")
    runs = study_runs()
    durations: dict[tuple[str, str], list[float]] = {}
    for r in runs:
        durations.setdefault((r.workload, r.engine), [])
        if r.succeeded and r.duration_s is not None:
            durations[(r.workload, r.engine)].append(r.duration_s)
    rows = summarize(durations, "vivace", resamples=300)
    path = write_report(tmp_path / "out" / "report.html", "engines <&> study", runs, rows,
                        datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc))
    html = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(html)
    page.close()
    return html, page


def test_report_is_well_formed_html(report: tuple[str, Page]) -> None:
    html, page = report
    assert html.startswith("<!DOCTYPE html>")
    assert page.errors == [] and page.stack == []
    assert len(page.ids) == len(set(page.ids))  # inline SVGs do not clash
    assert "<title>engines &lt;&amp;&gt; study: Vivace lab report</title>" in html


def test_report_shows_the_summary_values(report: tuple[str, Page]) -> None:
    _, page = report
    cells = page.cells
    sleep_hadoop = cells.index("hadoop-local", cells.index("sleep"))
    row = cells[sleep_hadoop - 1 : sleep_hadoop + 11]
    assert row[:4] == ["sleep", "hadoop-local", "3", "0"]
    assert row[4:8] == ["912.0", "900.0", "920.0", "910.7 ± 10.1"]
    assert row[8] == "1.1 %"
    assert row[9] == f"{912.0 / 12.2:.1f}×"
    assert re.fullmatch(r"\d+\.\d – \d+\.\d", row[10])
    tera = cells.index("hadoop-local", cells.index("terasort"))
    assert cells[tera + 1 : tera + 3] == ["1", "1"]  # one success, one failure
    assert cells[tera + 8 : tera + 10] == ["2.00×", "undefined"]
    assert ODD_NAME in cells


def test_report_lists_failed_runs_with_escaped_reasons(report: tuple[str, Page]) -> None:
    html, page = report
    assert "java.lang.OutOfMemoryError: &lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html
    assert "no reason recorded" in page.cells
    assert "script" not in page.tags


def test_report_has_the_expected_plots(report: tuple[str, Page]) -> None:
    html, page = report
    # run times, ratios, and metrics for sleep and terasort; the odd workload has no samples
    assert page.tags.get("svg") == 4
    assert "img" not in page.tags
    assert "No successful run with metric samples." in html
    # the representative runs are the median ones (12.2 s and 912 s)
    assert "Runs 3 (vivace), 5 (hadoop-local)." in html
    # labels inside the plots are escaped SVG text, and '$' did not turn into math
    assert "wc &lt;big&gt; &amp; $x$" in html


def test_report_needs_nothing_from_the_network(report: tuple[str, Page]) -> None:
    html, page = report
    assert not re.search(r"https?://", html)
    for tag in ("script", "link", "iframe", "object", "embed", "img"):
        assert tag not in page.tags
    for name, value in page.attrs:
        if name in ("src", "href", "xlink:href"):
            assert value.startswith("#"), (name, value)
    assert "url(" not in html.split("</style>")[0].split("<style>")[1]


def test_representative_run_is_the_median_one_with_samples() -> None:
    runs = [run(1, "w", "e", 10.0), run(2, "w", "e", 20.0, with_samples=False)]
    runs.append(run(3, "w", "e", 30.0))
    assert representative_run(runs).run_id in (1, 3)  # 20 s has no samples; both are 10 s away
    runs.append(run(4, "w", "e", 21.0))
    assert representative_run(runs).run_id == 4
    assert representative_run([run(5, "w", "e", None, failed="x")]) is None
