"""ALOJA's configuration speedup: for one workload and one parameter, each value's speedup
against the workload's average run time; and the best configurations by time or by cost."""

from __future__ import annotations

import statistics

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.charts import RatioBar, ratio_chart
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.filters import RunFilter

router = APIRouter()
BEST_ROWS = 25
RANKINGS = ("time", "cost")


@router.get("/speedup", response_class=HTMLResponse)
def speedup_page(request: Request) -> HTMLResponse:
    params = request.query_params
    rank = params.get("rank") or "time"
    if rank not in RANKINGS:
        raise bad_parameter("rank", f"'{rank}' is not a ranking: time or cost")
    with store_of(request).reading() as session:
        options = queries.filter_options(session)
        workload = params.get("workload") or queries.busiest_workload(session)
        if workload is not None and workload not in options.workloads:
            raise bad_parameter("workload", f"no runs of workload '{workload}' "
                                            f"(there are: {', '.join(options.workloads)})")
        choices = queries.dimension_choices(session, workload) if workload else []
        parameter = params.get("param") or (choices[0] if choices else "engine")
        queries.dimension(parameter, "param")  # refuses an unknown one, naming "param"
        grouped = queries.durations_by(session, RunFilter(workload=workload), parameter) \
            if workload else {}
        configurations = queries.configurations(session, workload) if workload else []
    all_durations = [d for runs in grouped.values() for _, d in runs]
    average = statistics.fmean(all_durations) if all_durations else None
    rows = []
    for value, runs in grouped.items():
        mean = statistics.fmean(d for _, d in runs)
        rows.append((value, len(runs), mean, average / mean if mean else None))
    chart = ratio_chart([RatioBar(f"{parameter} = {v}", s) for v, _, _, s in rows if s],
                        f"the workload's average ({average:.3g} s)" if average else "average",
                        "speedup by value") if rows else None
    if rank == "cost":
        priced = [c for c in configurations if c.cost is not None]
        best = sorted(priced, key=lambda c: (c.cost, c.mean_s))[:BEST_ROWS]
        unpriced = len(configurations) - len(priced)
    else:
        best = sorted(configurations, key=lambda c: (c.mean_s, c.first_run))[:BEST_ROWS]
        unpriced = 0
    return render(request, "speedup.html", options=options, workload=workload,
                  parameter=parameter, choices=choices, rows=rows, average=average, chart=chart,
                  best=best, rank=rank, unpriced=unpriced, configurations=len(configurations))
