"""A study's results on the terminal and as its static HTML report, read back from the store."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from vivace_lab.analysis.network_floor import run_network
from vivace_lab.analysis.sleep_test import sleep_test
from vivace_lab.analysis.summary import SummaryRow, summarize
from vivace_lab.analysis.swim import analyse as analyse_swim
from vivace_lab.engines.real_cluster_shape import link_of_cluster
from vivace_lab.report.formatting import factor
from vivace_lab.report.html import write_report
from vivace_lab.report.model import ReportRun
from vivace_lab.workloads.catalogue import WORKLOADS


def group_label(workload: str, params: dict[str, str], overrides: dict[str, str], cluster: str | None = None) -> str:
    """The workload with the parameters that differ from its defaults and the grid's keys, and the
    link rate of the real cluster ``cluster`` names (runs on other links are another group)."""
    defaults = {p.name: str(p.default) for p in WORKLOADS[workload].params} if workload in WORKLOADS else {}
    changed = [f"{k}={v}" for k, v in params.items() if defaults.get(k) != v]
    changed += [f"{k}={v}" for k, v in overrides.items()]
    link = link_of_cluster(cluster)
    if link:
        changed.append(f"link={link}")
    return f"{workload} {' '.join(changed)}".strip()


def study_summary(store, study_id: int, engines: list[str] | None = None) -> list[SummaryRow]:
    """Per group and engine statistics of successful runs; ratios to the first engine."""
    runs = store.runs(study_id=study_id)
    engines = engines or list(dict.fromkeys(run.engine for run in runs))
    durations: dict[tuple[str, str], list[float]] = defaultdict(list)
    for run in runs:
        durations.setdefault((group_label(run.workload, run.params, run.overrides, run.cluster), run.engine), [])
    for run in runs:
        if run.status == "succeeded" and run.duration_s is not None:
            durations[(group_label(run.workload, run.params, run.overrides, run.cluster), run.engine)].append(run.duration_s)
    ordered = dict(sorted(durations.items(), key=lambda item: (
        item[0][0], engines.index(item[0][1]) if item[0][1] in engines else len(engines))))
    return summarize(ordered, engines[0]) if engines else []


def output_disagreements(store, study_id: int) -> list[str]:
    """Groups whose successful runs produced different outputs from the same input (equal input
    checksums in their run records) on different engines."""
    checksums: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for run in store.runs(study_id=study_id, status="succeeded"):
        if run.output_checksum:
            data = (store.run(run.id, job_detail=False).record or {}).get("data") or {}
            group = (group_label(run.workload, run.params, run.overrides, run.cluster), data.get("checksum") or "")
            checksums[group][run.output_checksum].add(run.engine)
    return [f"{label} (input {input_checksum[:23] or 'without checksum'}): "
            + "; ".join(f"{', '.join(sorted(engines))} -> {checksum[:23]}"
                        for checksum, engines in by_checksum.items())
            for (label, input_checksum), by_checksum in checksums.items() if len(by_checksum) > 1]


def lustre_notes(store, study_id: int | None) -> list[str]:
    """For runs on lustre:// whose stripe settings were not applied (no lfs tool: a plain POSIX
    directory), one line per outcome, so nobody takes their times for striped Lustre."""
    not_applied: dict[tuple[str, str], int] = defaultdict(int)
    for run in store.runs(study_id=study_id):
        lustre = ((store.run(run.id, job_detail=False).record or {}).get("results") or {}).get("lustre") or {}
        stripes = str(lustre.get("stripes") or "")
        if stripes.startswith("not applied"):
            not_applied[(str(lustre.get("root")), stripes)] += 1
    return [f"{count} run(s) on lustre:// under {root}: stripes {stripes} (a POSIX directory, not striped Lustre)"
            for (root, stripes), count in not_applied.items()]


def print_summary(console: Console, store, study_id: int, engines: list[str]) -> int:
    """Prints the summary table; returns the number of output disagreements (printed too)."""
    rows = study_summary(store, study_id, engines)
    baseline = engines[0]
    table = Table(title="run time (s) of the timed job, successful runs", title_justify="left")
    for column in ("workload", "engine", "n", "median", "min", "max", "CV", f"time / {baseline} [95% CI]"):
        table.add_column(column, justify="left" if column in ("workload", "engine") else "right")
    for row in rows:
        stats = row.stats
        table.add_row(row.workload, row.engine, str(stats.n), _num(stats.median), _num(stats.min),
                      _num(stats.max), f"{stats.cv:.1%}" if stats.cv is not None else "-", _ratio(row))
    console.print(table)
    for row in rows:
        for warning in row.warnings:
            console.print(f"[yellow]note[/yellow] {row.workload} on {row.engine}: {warning}")
    print_sleep_test(console, store, study_id, engines)
    print_swim(console, store, study_id, engines)
    print_network(console, store, study_id)
    for line in lustre_notes(store, study_id):
        console.print(f"[yellow]note[/yellow] {line}")
    disagreements = output_disagreements(store, study_id)
    for line in disagreements:
        console.print(f"[red]outputs differ[/red] {line}")
    return len(disagreements)


def print_sleep_test(console: Console, store, study_id: int, engines: list[str]) -> None:
    """STAC's table 3 for a study with sleep runs: tasks per second per size and engine."""
    rows = sleep_test(store, study_id, engines)
    if not rows:
        return
    table = Table(title="sleep test (STAC's table 3): maps / median time of the timed job", title_justify="left")
    for column in ("size", "engine", "n", "median s", "tasks/s", f"x {engines[0]}'s tasks/s"):
        table.add_column(column, justify="left" if column in ("size", "engine") else "right")
    for row in rows:
        table.add_row(row.size, row.engine, str(row.runs), _num(row.median_s), f"{row.tasks_per_s:.3g}",
                      "-" if row.rate_vs_baseline is None else f"{row.rate_vs_baseline:.3g}")
    console.print(table)


def print_network(console: Console, store, study_id: int) -> None:
    """For runs on a real cluster: each timed job's time, the bytes it moved between hosts and its
    network floor (analysis/network_floor.py)."""
    rows = []
    for info in store.runs(study_id=study_id, status="succeeded"):
        host_samples = store.host_samples(info.id)
        if not host_samples:
            continue
        for job in run_network(store.run(info.id, job_detail=False).record, host_samples):
            rows.append((group_label(info.workload, info.params, info.overrides, info.cluster), info.engine, job))
    if not rows:
        return
    table = Table(title="network: bytes each timed job moved between the hosts, and the floor its links set "
                        "(the busiest host's bytes / link rate)", title_justify="left")
    for column in ("workload", "engine", "job s", "moved MB", "busiest host MB", "floor s", "job / floor"):
        table.add_column(column, justify="left" if column in ("workload", "engine") else "right")
    for label, engine, job in sorted(rows, key=lambda row: (row[0], row[1])):
        table.add_row(label, engine, _num(job.time_s), f"{job.moved_bytes / 1e6:.1f}",
                      f"{job.busiest_bytes / 1e6:.1f} ({job.busiest_host})", _num(job.floor_s),
                      _num(job.time_s / job.floor_s) if job.floor_s and job.time_s else "-")
    console.print(table)


def print_swim(console: Console, store, study_id: int, engines: list[str]) -> None:
    """STAC's tables for a study with swim runs: job times per engine with latency percentiles,
    per-job ratios per pair, and the latency ratios of every two engines on their matched jobs."""
    swim = analyse_swim(store, study_id, engines)
    if swim is None:
        return
    table = Table(title=f"SWIM: {swim.replayed_jobs} jobs replayed, job time (s) submission to completion",
                  title_justify="left")
    for column in ("engine", "jobs", "failed", "min", "mean", "p50", "p95", "p99", "max", "sum"):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for row in swim.durations:
        label = row.engine + (f" (every {row.sample_every}th trace job)" if row.sample_every > 1 else "")
        table.add_row(label, str(row.jobs), str(row.failed), _num(row.min_s), _num(row.mean_s),
                      _num(row.p50_s), _num(row.p95_s), _num(row.p99_s), _num(row.max_s), _num(row.total_s))
    console.print(table)
    if swim.pairs:
        table = Table(title="SWIM: per-job time ratio", title_justify="left")
        for column in ("ratio", "paired", "unpaired", "min", "mean", "median", "max", "total time ratio"):
            table.add_column(column, justify="left" if column == "ratio" else "right")
        for pair in swim.pairs:
            table.add_row(f"{pair.other} / {pair.baseline}", str(len(pair.ratios)), str(pair.unpaired),
                          _num(pair.min), _num(pair.mean), _num(pair.median), _num(pair.max),
                          _num(pair.total_time_ratio))
        console.print(table)
    if swim.latency_ratios:
        table = Table(title="SWIM: latency ratios on the jobs both engines completed (matched)",
                      title_justify="left")
        for column in ("ratio", "matched", "mean, s", "mean", "p50", "p95", "p99"):
            table.add_column(column, justify="left" if column == "ratio" else "right")
        for r in swim.latency_ratios:
            table.add_row(f"{r.numerator} / {r.denominator}", str(r.matched),
                          f"{_num(r.numerator_mean_s)} / {_num(r.denominator_mean_s)}",
                          factor(r.mean), factor(r.p50), factor(r.p95), factor(r.p99))
        console.print(table)


def print_runs(console: Console, store, **filters) -> None:
    table = Table()
    for column in ("id", "date (UTC)", "workload", "engine", "status", "seconds", "input bytes", "configuration"):
        table.add_column(column)
    for run in store.runs(**filters):
        table.add_row(str(run.id), run.started_at.strftime("%Y-%m-%d %H:%M:%S"), run.workload, run.engine,
                      run.status if run.status == "succeeded" else f"failed: {run.failure}",
                      _num(run.duration_s), str(run.input_bytes or "-"),
                      group_label(run.workload, run.params, run.overrides, run.cluster))
    console.print(table)


def write_study_report(store, study_id: int, study_name: str, path: Path) -> Path:
    runs = [_report_run(store, info) for info in store.runs(study_id=study_id)]
    engines = list(dict.fromkeys(run.engine for run in runs))
    return write_report(path, study_name, runs, study_summary(store, study_id, engines), datetime.now(UTC),
                        swim=analyse_swim(store, study_id, engines),
                        sleep_test=sleep_test(store, study_id, engines))


def _report_run(store, info) -> ReportRun:
    detail = store.run(info.id, job_detail=False)
    jobs = [{"phase": job.phase, "name": job.name, "submit_ms": job.submit_ms, "start_ms": job.start_ms,
             "finish_ms": job.finish_ms, "done_ms": job.done_ms} for job in detail.jobs]
    return ReportRun(run_id=info.id, workload=group_label(info.workload, info.params, info.overrides, info.cluster),
                     engine=info.engine, status=info.status, failure=info.failure,
                     duration_s=info.duration_s, params=info.params, overrides=info.overrides,
                     started_ms=info.started_ms, finished_ms=info.finished_ms,
                     samples=store.samples(info.id), jobs=jobs)


def _num(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def _ratio(row: SummaryRow) -> str:
    ratio = row.ratio
    if ratio.ratio is None:
        return "-"
    if row.is_baseline:
        return "1 (baseline)"
    interval = f" [{ratio.low:.2f}, {ratio.high:.2f}]" if ratio.low is not None else " [n<2]"
    return f"{ratio.ratio:.2f}{interval}"
