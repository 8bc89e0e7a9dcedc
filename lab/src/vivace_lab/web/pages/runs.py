"""The runs list: filter, sort, page, save the filter as a URL, download what is shown."""

from __future__ import annotations

import io

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from vivace_lab.store.export import write_runs
from vivace_lab.store.runs import read_config_values_of
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.errors import not_found
from vivace_lab.web.filters import SORTS, parse_filter

router = APIRouter()

DOWNLOAD_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


@router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request) -> HTMLResponse:
    filt = parse_filter(request.query_params.multi_items())
    with store_of(request).reading() as session:
        total_stored = queries.run_count(session)
        options = queries.filter_options(session)
        runs, total = queries.run_page(session, filt) if total_stored else ([], 0)
    pages = max(1, -(-total // filt.per_page))
    return render(request, "runs.html", filt=filt, runs=runs, total=total, pages=pages,
                  total_stored=total_stored, options=options, sorts=list(SORTS),
                  query=filt.query_string("page"))


@router.get("/runs.{fmt}")
def runs_download(request: Request, fmt: str) -> Response:
    """Every run the filter selects (all pages), in the list's order, as the CLI exports them."""
    if fmt not in DOWNLOAD_TYPES:
        raise not_found(f"no download format '{fmt}': runs.csv or runs.json")
    filt = parse_filter(request.query_params.multi_items())
    with store_of(request).reading() as session:
        runs = queries.all_filtered(session, filt)
        grid_keys = sorted({k for run in runs for k in run.overrides})
        config = read_config_values_of(session, [r.id for r in runs], grid_keys)
    out = io.StringIO()
    write_runs(runs, config, fmt, out)
    return Response(out.getvalue(), media_type=DOWNLOAD_TYPES[fmt],
                    headers={"Content-Disposition": f'attachment; filename="runs.{fmt}"'})
