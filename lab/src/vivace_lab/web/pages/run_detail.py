"""One run: configuration, counters, validation, the task timeline over its metric series,
and its Paraver trace."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from vivace_lab.analysis.network_floor import per_host, run_network
from vivace_lab.engines.cluster_shape import CLUSTER_KEYS, ClusterShape
from vivace_lab.store.info import RunDetail
from vivace_lab.web import paraver, queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.charts import timeline_chart
from vivace_lab.web.errors import not_found
from vivace_lab.web.limits import RunId
from vivace_lab.web.timeline import job_markers, metric_panels, task_bars, time_origin_ms

router = APIRouter()


def _run(request: Request, run_id: RunId) -> RunDetail:
    try:
        return store_of(request).run(run_id)
    except KeyError:
        raise not_found(f"There is no run {run_id} in this database.",
                        "The runs list shows the runs there are.") from None


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, run_id: RunId) -> HTMLResponse:
    run = _run(request, run_id)
    with store_of(request).reading() as session:
        points = queries.series(session, run_id)
        samples = queries.sample_counts(session, [run_id]).get(run_id, 0)
    origin = time_origin_ms(run.started_ms, run.jobs, points[0].start_ms if points else None)
    bars = task_bars(run.jobs, origin)
    ends = [run.finished_ms - origin] + [b.end * 1000 for b in bars] + \
        [p.end_ms - origin for p in points]
    chart = timeline_chart(max(ends) / 1000, metric_panels(points, origin) if points else [],
                           bars, job_markers(run.jobs, origin), label=f"run {run_id} timeline")
    tasks = sum(len(job.tasks) for job in run.jobs)
    host_samples = store_of(request).host_samples(run_id)
    return render(request, "run.html", run=run, chart=chart, samples=samples, tasks=tasks,
                  points=len(points), minicluster=_minicluster(request, run),
                  hosts=per_host(host_samples), host_samples=len(host_samples),
                  job_networks=run_network(run.record, host_samples),
                  overrides=sorted(run.overrides.items()),
                  data=(run.record or {}).get("data") or {},
                  results=(run.record or {}).get("results") or {})


def _minicluster(request: Request, run: RunDetail) -> str | None:
    """The shape of the mini-cluster the run's cluster description names, and when it started (from
    the run record), in words; None for runs on no mini-cluster."""
    description = next((c.description for c in store_of(request).clusters() if c.name == run.cluster), {})
    shape = (description or {}).get("minicluster")
    real = (description or {}).get("real_cluster")
    if isinstance(real, dict):
        text = (f"real cluster: {real.get('hosts')} worker hosts of {real.get('cores')} vcores and "
                f"{real.get('memory_mb')} MB, links {real.get('link')}")
    elif isinstance(shape, dict):
        text = "mini-cluster: " + ClusterShape(**{k: v for k, v in shape.items() if k in CLUSTER_KEYS}).summary()
    else:
        return None
    cluster = (run.record or {}).get("cluster") or {}
    if cluster.get("start_s") is not None:
        text += f"; it started in {cluster['start_s']:.1f} s, before the study's first run on it (in no run's time)"
    session = cluster.get("session")
    if isinstance(session, dict) and session.get("application_id"):
        text += (f"; Vivace session {session['application_id']}: executors of {session.get('slots_per_executor')} "
                 f"slots and {session.get('executor_memory_mb')} MB, {session.get('executors_min')} to "
                 f"{session.get('executors_max')}")
        if session.get("start_s") is not None:
            text += f", started in {session['start_s']:.1f} s (in no run's time)"
    return text


@router.get("/runs/{run_id}/trace.prv")
def trace_prv(request: Request, run_id: RunId) -> Response:
    run = _run(request, run_id)
    return _download(paraver.prv(run, store_of(request).samples(run_id)), f"run-{run_id}.prv")


@router.get("/runs/{run_id}/trace.pcf")
def trace_pcf(request: Request, run_id: RunId) -> Response:
    _run(request, run_id)
    return _download(paraver.pcf(), f"run-{run_id}.pcf")


@router.get("/runs/{run_id}/trace.row")
def trace_row(request: Request, run_id: RunId) -> Response:
    return _download(paraver.row(_run(request, run_id)), f"run-{run_id}.row")


@router.get("/runs/{run_id}/record.json")
def record_json(request: Request, run_id: RunId) -> Response:
    run = _run(request, run_id)
    if run.record is None:
        raise not_found(f"Run {run_id} has no run record: it failed before the driver wrote one "
                        f"({run.failure or 'no reason stored'}).")
    return Response(json.dumps(run.record, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="run-{run_id}.json"'})


def _download(text: str, name: str) -> Response:
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
