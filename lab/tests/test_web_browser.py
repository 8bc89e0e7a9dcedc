"""The web app in a real headless browser: Debian's chromium driven by Playwright, against
`vivace lab serve` started as a process on a seeded SQLite database. Each step saves a
screenshot under lab/work/test-artifacts/web/ (see lab/docs/testing.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import CHROMIUM_ARGS, SKIP_ENV, BrowserUnavailable, find_chromium, lab_server
from swimdata import seed_swim_study
from webdata import LOCAL_CLUSTER, seed

from vivace_lab.store import Store

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "work" / "test-artifacts" / "web"
PAGES = ("/runs", "/compare?workload=terasort&by=engine", "/speedup", "/cost", "/studies",
         "/studies/sleep", "/studies/dfsio", "/studies/swim")


@pytest.fixture(scope="module")
def chromium():
    try:
        return find_chromium()
    except BrowserUnavailable as unavailable:
        if os.environ.get(SKIP_ENV) == "1":
            pytest.skip(f"no chromium ({SKIP_ENV}=1): {unavailable}")
        pytest.fail(f"no chromium: {unavailable}\n(set {SKIP_ENV}=1 to skip the browser tests)",
                    pytrace=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`vivace lab serve` on a free port over a freshly seeded database; its base URL."""
    db = tmp_path_factory.mktemp("web") / "lab.db"
    with Store(str(db)) as store:
        seed(store)
        seed_swim_study(store)
    with lab_server(db) as base:
        yield base


@pytest.fixture(scope="module")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_every_page_loads(server, page):
    for path in PAGES:
        response = page.goto(server + path)
        assert response.status == 200, path
        assert page.locator("h1").count() == 1, path
        assert "Traceback" not in page.content()
        shot(page, "page" + path.split("?")[0].replace("/", "-"))
    missing = page.goto(server + "/runs/987654")
    assert missing.status == 404 and "no run 987654" in page.locator(".error").inner_text()
    shot(page, "error-404")


def test_swim_page_draws_the_study_tables_and_charts(server, page):
    page.goto(server + "/studies/swim")
    page.select_option("#swim-study", "swim-test")
    page.click("form.filters button")
    page.wait_for_url("**/studies/swim?study=swim-test")
    assert page.locator("#swim-durations tbody tr").count() == 2
    assert page.locator("#swim-ratios tbody tr td").first.inner_text() == "hadoop-local / vivace"
    # the ratio histogram, two scatters (3 paired jobs each) and four size histograms
    assert page.locator("svg.chart").count() == 7
    assert page.locator("svg.chart circle.point").count() == 6
    assert page.locator("#swim-failures tbody tr").count() == 1
    shot(page, "swim-study")


def test_filter_save_and_open_a_run(server, page):
    page.goto(server + "/runs")
    page.select_option("select[name=engine]", "hadoop-local")
    page.select_option("select[name=workload]", "terasort")
    page.click("#apply-filter")
    page.wait_for_url("**/runs?*engine=hadoop-local*")
    rows = page.locator("#runs-table tbody tr")
    assert rows.count() == 6
    engines = page.locator("#runs-table tbody tr td:nth-child(5)").all_inner_texts()
    assert set(engines) == {"hadoop-local"}
    page.fill("#filter-name", "local terasort")
    page.click("#save-filter")
    saved = page.locator("#saved-filters a.saved-filter")
    assert saved.all_inner_texts() == ["local terasort"]
    assert "engine=hadoop-local" in saved.get_attribute("href")
    shot(page, "runs-filtered")
    page.goto(server + "/runs")  # the saved filter survives a reload and opens the same list
    page.click("#saved-filters a.saved-filter")
    page.wait_for_url("**engine=hadoop-local*")
    assert page.locator("#runs-table tbody tr").count() == 6

    first = page.locator("a.run-link").first
    run_id = first.inner_text()
    first.click()
    page.wait_for_url(f"**/runs/{run_id}")
    assert page.locator("h1").inner_text().startswith(f"Run {run_id}: terasort on hadoop-local")
    assert page.locator("svg.chart rect.task").count() > 0
    assert page.locator("svg.chart polygon.area").count() == 3
    shot(page, "run-detail")


def test_compare_selected_runs(server, page):
    page.goto(server + "/runs?workload=terasort&sort=id&order=asc")
    boxes = page.locator("input[name=run]")
    boxes.nth(0).check()
    boxes.nth(11).check()
    page.click("text=compare selected")
    page.wait_for_url("**/compare?run=*")
    assert page.locator("#compare-table tbody tr").count() == 2
    shot(page, "compare-selected")


def test_editing_a_price_changes_the_cost_chart(server, page):
    page.goto(server + "/cost?workload=terasort")
    before = _points(page)
    assert len(before) == 4
    page.fill(f"input[data-cluster='{LOCAL_CLUSTER}']", "40")
    shot(page, "cost-before")
    with page.expect_navigation():
        page.locator(f"input[data-cluster='{LOCAL_CLUSTER}']").press("Enter")
    assert page.url.endswith("/cost?workload=terasort")
    assert page.locator(f"input[data-cluster='{LOCAL_CLUSTER}']").input_value() == "40.0"
    after = _points(page)
    vivace = [key for key in before if key.startswith("vivace|")]
    # points are scaled between the cheapest and the dearest configuration: vivace's runs on the
    # repriced cluster were the cheap ones, now they are the dear ones
    assert vivace and all(before[key][1] < 0.5 < after[key][1] for key in vivace)
    assert all(before[key][0] == after[key][0] for key in before)  # times did not change
    shot(page, "cost-after")


def _points(page) -> dict[str, tuple[float, float]]:
    points = page.locator("#cost-chart circle.point")
    return {points.nth(i).get_attribute("data-key"):
            (float(points.nth(i).get_attribute("data-x")),
             float(points.nth(i).get_attribute("data-y")))
            for i in range(points.count())}
