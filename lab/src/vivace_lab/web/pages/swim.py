"""The SWIM study page: the stored runs of the SWIM replay workload per engine.

Kept apart from the other study pages so that the SWIM study's own tables and figures (job
durations, per-job ratios against input+output and shuffle size) can be filled in here."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vivace_lab.analysis.summary import describe
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.filters import RunFilter

router = APIRouter()

WORKLOAD = "swim"
COMMAND = "./vivace lab run swim"


@router.get("/studies/swim", response_class=HTMLResponse)
def swim_page(request: Request) -> HTMLResponse:
    with store_of(request).reading() as session:
        runs = queries.all_filtered(session, RunFilter(workload=WORKLOAD, sort="id",
                                                       descending=False))
    engines: dict[str, list] = {}
    for run in runs:
        engines.setdefault(run.engine, []).append(run)
    summary = [(engine, len(rs), describe([r.duration_s for r in rs
                                           if r.status == "succeeded" and r.duration_s is not None]))
               for engine, rs in engines.items()]
    return render(request, "swim.html", runs=runs, summary=summary, command=COMMAND,
                  workload=WORKLOAD)
