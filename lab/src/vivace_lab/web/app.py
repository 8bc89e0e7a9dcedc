"""The FastAPI application: templates, static files, error pages, and the page routers."""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.exceptions import HTTPException

from vivace_lab.report import formatting
from vivace_lab.store import Store
from vivace_lab.web.errors import PageError
from vivace_lab.web.limits import nul_problem

log = logging.getLogger("vivace_lab.web")
STATIC = Path(__file__).resolve().parent / "static"


def create_app(store: Store) -> FastAPI:
    """The app over an open Store (the caller closes it)."""
    from vivace_lab.web.pages import compare, cost, run_detail, runs, speedup, studies, swim
    from vivace_lab.web.pages import models, predict, recommend

    app = FastAPI(title="Vivace lab", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.templates = _environment()
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for module in (runs, run_detail, compare, speedup, cost, studies, swim, models, predict,
                   recommend):
        app.include_router(module.router)

    @app.middleware("http")
    async def refuse_nul_in_query(request: Request, call_next):
        for key, value in request.query_params.multi_items():
            problem = nul_problem(key, value)
            if problem:
                return error_page(request, 400, problem)
        return await call_next(request)

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/runs", status_code=307)

    @app.exception_handler(PageError)
    def page_error(request: Request, error: PageError) -> HTMLResponse:
        return error_page(request, error.status, error.message, error.hint)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, error: HTTPException) -> HTMLResponse:
        message = "No page at this address." if error.status_code == 404 else str(error.detail)
        return error_page(request, error.status_code, message)

    @app.exception_handler(RequestValidationError)
    def validation_error(request: Request, error: RequestValidationError) -> HTMLResponse:
        problems = []
        for problem in error.errors():
            where = ".".join(str(p) for p in problem.get("loc", ())[1:]) or "request"
            problems.append(f"{where}: {problem.get('msg', 'invalid')}"
                            + (f" (got '{problem['input']}')" if problem.get("input") is not None
                               and not isinstance(problem.get("input"), dict) else ""))
        return error_page(request, 400, "; ".join(problems) or "bad request")

    @app.exception_handler(Exception)
    def unexpected(request: Request, error: Exception) -> HTMLResponse:
        log.exception("error serving %s", request.url.path)
        return error_page(request, 500, f"The server failed on this page ({type(error).__name__}: "
                                        f"{error}). The server's log has the details.")

    return app


def render(request: Request, template: str, status_code: int = 200, **context) -> HTMLResponse:
    env: Environment = request.app.state.templates
    html = env.get_template(template).render(request=request, path=request.url.path, **context)
    return HTMLResponse(html, status_code=status_code)


def error_page(request: Request, status: int, message: str, hint: str | None = None) -> HTMLResponse:
    titles = {400: "Bad request", 404: "Not found", 405: "Method not allowed",
              500: "Server error"}
    return render(request, "error.html", status_code=status, status=status,
                  title=titles.get(status, "Error"), message=message, hint=hint)


def store_of(request: Request) -> Store:
    return request.app.state.store


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("vivace_lab.web", "templates"),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(seconds=formatting.seconds, mean_sd=formatting.mean_sd,
                       factor=formatting.factor, ratio=formatting.ratio,
                       interval=formatting.interval, percent=formatting.percent,
                       pairs=formatting.pairs, size=_size, money=_money)
    return env


def _size(value: int | None) -> str:
    if value is None:
        return "–"
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if value >= factor:
            return f"{value / factor:.1f} {unit}"
    return f"{value} B"


def _money(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.4f}" if value < 1 else f"{value:.2f}"
