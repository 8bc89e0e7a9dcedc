"""Recommend: the cheapest configuration predicted to meet a deadline (and a budget), the next few,
and the most informative next run as a study spec."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from vivace_lab.models import NotEnoughRuns, RequestError, recommend
from vivace_lab.models.dataset import short_name
from vivace_lab.web.app import render
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.pages.models import book_of, chosen_workload
from vivace_lab.web.pages.predict import form_fields, model_request

router = APIRouter()


@router.get("/recommend", response_class=HTMLResponse)
def recommend_page(request: Request) -> HTMLResponse:
    book = book_of(request)
    workload, workloads = chosen_workload(request, book)
    page = dict(workload=workload, workloads=workloads, model=None, fields=[], answer=None,
                problem=None, deadline="", budget="", short_name=short_name)
    if workload is None:
        return render(request, "recommend.html", **page)
    try:
        model = book.model(workload)
    except NotEnoughRuns as too_few:
        return render(request, "recommend.html", **{**page, "problem": str(too_few)})
    query = request.query_params
    deadline = _number(query.get("deadline"), "deadline")
    budget = _number(query.get("budget"), "budget")
    page.update(model=model, fields=form_fields(model, query), deadline=query.get("deadline") or "",
                budget=query.get("budget") or "")
    wanted = model_request(query, workload)
    if deadline is not None:
        try:
            page["answer"] = recommend(model, wanted, deadline, book.prices(), budget)
        except RequestError as e:
            page["problem"] = str(e)
    return render(request, "recommend.html", **page)


def _number(text: str | None, name: str) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise bad_parameter(name, f"'{text}' is not a number") from None
