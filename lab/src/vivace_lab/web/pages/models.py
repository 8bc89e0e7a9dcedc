"""The models learned from the stored runs: each workload's chosen model and its errors, every
family's error table, and predicted against measured time (lab/docs/models.md)."""

from __future__ import annotations

import math

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vivace_lab.models import ModelBook, WorkloadModel
from vivace_lab.models.dataset import ENGINE, describe_settings
from vivace_lab.models.evaluation import CV, EXTRAPOLATION, SCHEMES, UNSEEN
from vivace_lab.models.families import FAMILIES
from vivace_lab.report.plots import engine_colours
from vivace_lab.web.app import render, store_of
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.model_charts import RunPoint, predicted_measured_chart

router = APIRouter()


def book_of(request: Request) -> ModelBook:
    """The app's models, kept across requests until a workload's runs change."""
    book = getattr(request.app.state, "model_book", None)
    if book is None:
        book = request.app.state.model_book = ModelBook(store_of(request))
    return book


def chosen_workload(request: Request, book: ModelBook) -> tuple[str | None, dict[str, int]]:
    """The workload asked for, else the one with the most runs; and every workload's run count."""
    workloads = book.workloads()
    workload = request.query_params.get("workload") or (
        max(workloads, key=lambda w: (workloads[w], w)) if workloads else None)
    if workload is not None and workload not in workloads:
        raise bad_parameter("workload", f"no successful runs of workload '{workload}' "
                                        f"(workloads with runs: {', '.join(workloads) or 'none'})")
    return workload, workloads


@router.get("/models", response_class=HTMLResponse)
def models_page(request: Request) -> HTMLResponse:
    book = book_of(request)
    workload, workloads = chosen_workload(request, book)
    overview = book.overview()
    model = next((line.model for line in overview if line.workload == workload), None)
    reason = next((line.reason for line in overview if line.workload == workload), None)
    charts = _charts(model) if model else []
    return render(request, "models.html", overview=overview, workload=workload,
                  workloads=workloads, model=model, reason=reason, charts=charts,
                  schemes=SCHEMES, order=(CV, UNSEEN, EXTRAPOLATION), families=FAMILIES,
                  configurations=len(set(model.training.configuration_ids())) if model else 0,
                  interval_factors=(math.exp(model.half_width[CV]), math.exp(model.half_width[UNSEEN]))
                  if model else None)


def _charts(model: WorkloadModel) -> list:
    """Predicted against measured for the chosen family, one chart per test it went through."""
    frame = model.training.frame
    records = frame.to_dict("records")
    engines = sorted(set(frame[ENGINE]))
    colours = engine_colours(engines)
    visible = [c for c in model.training.settings if not c.startswith("hw:")]
    charts = []
    for scheme in (CV, UNSEEN, EXTRAPOLATION):
        validation = model.results[model.chosen].validations.get(scheme)
        if validation is None:
            continue
        points = []
        for row, measured, predicted in zip(validation.rows, validation.measured_s,
                                            validation.predicted_s):
            run = records[int(row)]
            points.append(RunPoint(float(measured), float(predicted), colours[run[ENGINE]],
                                   f"run {run['run_id']}: measured {measured:.3g} s, predicted "
                                   f"{predicted:.3g} s; {describe_settings(run, visible)}",
                                   int(run["run_id"])))
        band = model.half_width[UNSEEN if scheme == UNSEEN else CV] if scheme != EXTRAPOLATION else None
        charts.append((scheme, predicted_measured_chart(points, sorted(colours.items()),
                                                        SCHEMES[scheme], band)))
    return charts
