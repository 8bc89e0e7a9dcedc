"""What-if: the predicted time and cost of a run of a workload in a configuration, with its
interval, the nearest measured runs and a warning outside the measured range."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.datastructures import QueryParams

from vivace_lab.models import NotEnoughRuns, RequestError, WorkloadModel, predict
from vivace_lab.models import Request as ModelRequest
from vivace_lab.models.dataset import CLUSTER, CONF, ENGINE, HW, PARAM, short_name
from vivace_lab.web.app import render
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.pages.models import book_of, chosen_workload

router = APIRouter()

#: query parameters that are not settings
FORM_KEYS = ("workload", "deadline", "budget")


@dataclass(frozen=True)
class Field:
    """One setting of the form: its query name, label, the values the runs had, the default."""

    name: str
    label: str
    values: tuple[str, ...]
    default: str | None
    value: str  # as entered ("" when not)
    kind: str  # engine | cluster | param | conf


def model_request(query: QueryParams, workload: str) -> ModelRequest:
    """The model request a form's query string makes; empty fields are not given."""
    params: dict[str, str] = {}
    sets: dict[str, str] = {}
    chosen: dict[str, str] = {}
    for key, value in query.multi_items():
        value = value.strip()
        if key in FORM_KEYS or not value:
            continue
        if key.startswith(PARAM) and key != PARAM:
            params[key[len(PARAM):]] = value
        elif key.startswith(CONF) and key != CONF:
            sets[key[len(CONF):]] = value
        elif key in (ENGINE, CLUSTER):
            chosen[key] = value
        else:
            raise bad_parameter(key, "not a setting (engine, cluster, param:NAME, conf:KEY)")
    return ModelRequest(workload, params, sets, chosen.get(ENGINE), chosen.get(CLUSTER))


def form_fields(model: WorkloadModel, query: QueryParams) -> list[Field]:
    fields = []
    for column in model.space.columns:
        if column.name.startswith(HW):
            continue
        kind = column.name.split(":", 1)[0]
        fields.append(Field(column.name, short_name(column.name), column.values, column.default,
                            (query.get(column.name) or "").strip(), kind))
    return fields


@router.get("/predict", response_class=HTMLResponse)
def predict_page(request: Request) -> HTMLResponse:
    book = book_of(request)
    workload, workloads = chosen_workload(request, book)
    if workload is None:
        return render(request, "predict.html", workload=None, workloads=workloads, model=None,
                      fields=[], prediction=None, problem=None)
    try:
        model = book.model(workload)
    except NotEnoughRuns as too_few:
        return render(request, "predict.html", workload=workload, workloads=workloads, model=None,
                      fields=[], prediction=None, problem=str(too_few))
    wanted = model_request(request.query_params, workload)
    problem = prediction = None
    try:
        prediction = predict(model, wanted, book.prices())
    except RequestError as e:
        problem = str(e)
    return render(request, "predict.html", workload=workload, workloads=workloads, model=model,
                  fields=form_fields(model, request.query_params), prediction=prediction,
                  problem=problem, short_name=short_name)
