"""Cost against performance: hourly prices of the clusters (editable), the cost of a run, and a
normalised time/cost scatter of a workload's configurations with its four quadrants."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from vivace_lab.report.plots import engine_colours
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.charts import Point, quadrant_chart
from vivace_lab.web.errors import PageError, bad_parameter, not_found
from vivace_lab.web.limits import nul_problem

router = APIRouter()


@router.get("/cost", response_class=HTMLResponse)
def cost_page(request: Request) -> HTMLResponse:
    store = store_of(request)
    clusters = store.clusters()
    with store.reading() as session:
        options = queries.filter_options(session)
        workload = request.query_params.get("workload") or \
            queries.busiest_workload(session)
        if workload is not None and workload not in options.workloads:
            raise bad_parameter("workload", f"no runs of workload '{workload}'")
        configurations = queries.configurations(session, workload) if workload else []
    priced = [c for c in configurations if c.cost is not None]
    unpriced = sorted({c.cluster for c in configurations if c.cost is None})
    chart = None
    if priced:
        colours = engine_colours(sorted({c.engine for c in priced}))
        times = [c.mean_s for c in priced]
        costs = [c.cost for c in priced]
        points = [Point(_normal(c.mean_s, times), _normal(c.cost, costs), colours[c.engine],
                        f"{c.engine} on {c.cluster}: {c.mean_s:.3g} s, cost {c.cost:.4g}; "
                        f"{_pairs(c.params)} {_pairs(c.overrides)}".strip(),
                        key=f"{c.engine}|{c.cluster}|{_pairs(c.params)}|{_pairs(c.overrides)}",
                        href=f"/runs/{c.first_run}")
                  for c in priced]
        chart = quadrant_chart(points, sorted(colours.items()), f"{workload}: cost against time")
    return render(request, "cost.html", clusters=clusters, options=options, workload=workload,
                  configurations=configurations, priced=priced, unpriced=unpriced, chart=chart)


@router.post("/clusters/price")
def set_price(request: Request, cluster: str = Form(...), hourly_price: str = Form(...),
              next: str = Form("/cost")) -> RedirectResponse:
    if nul_problem("cluster", cluster):
        raise PageError(400, nul_problem("cluster", cluster), "cluster")
    try:
        price = float(hourly_price)
        if not price >= 0 or price == float("inf"):
            raise ValueError
    except ValueError:
        raise bad_parameter("hourly_price", f"'{hourly_price}' is not a price: a number >= 0 "
                                            "(per hour, for the whole cluster)") from None
    try:
        store_of(request).set_cluster_price(cluster, price)
    except KeyError:
        raise not_found(f"There is no cluster named '{cluster}'.") from None
    target = next if next.startswith("/") and not next.startswith("//") else "/cost"
    return RedirectResponse(target, status_code=303)


def _normal(value: float, values: list[float]) -> float:
    """0 for the smallest of ``values``, 1 for the largest; 0.5 when they are all equal."""
    low, high = min(values), max(values)
    return 0.5 if high == low else (value - low) / (high - low)


def _pairs(mapping: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(mapping.items()))
