"""The Models, Predict and Recommend pages in Debian's chromium (Playwright), against `vivace lab
serve` on a database with a known law (modeldata.py). Screenshots go where test_web_browser.py
puts its own (lab/work/test-artifacts/web/)."""

from __future__ import annotations

import urllib.request

import pytest
from browser import lab_server
from modeldata import SMALL, seed_law
from test_web_browser import browser, chromium, page, shot  # noqa: F401  (its fixtures)

from vivace_lab.store import Store

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("model-web") / "lab.db"
    with Store(str(db)) as store:
        seed_law(store)
    with lab_server(db) as base:
        # the first request trains the models (seconds, minutes on a loaded machine): not while a
        # page load's timeout runs
        with urllib.request.urlopen(base + "/models", timeout=600) as response:
            assert response.status == 200
        yield base


def test_the_models_page_draws_the_error_table_and_the_charts(server, page):
    response = page.goto(server + "/models")
    assert response.status == 200
    assert page.locator("#model-errors tbody tr").count() == 5
    assert page.locator("#model-errors tr.chosen td").first.inner_text() == "linear (chosen)"
    assert page.locator("#chart-cv svg circle.point").count() == 120
    assert page.locator("#chart-extrapolation svg circle.point").count() == 24
    shot(page, "models")
    page.click("#models-overview a:text('sleep')")
    page.wait_for_url("**/models?workload=sleep")
    assert "not enough for a model of sleep" in page.locator("#not-enough").inner_text()


def test_predicting_beyond_the_measured_sizes_warns(server, page):
    page.goto(server + "/predict?workload=terasort")
    page.select_option("#predict-form select[name=engine]", "vivace")
    page.select_option("#predict-form select[name=cluster]", SMALL)
    page.fill("#predict-form input[name='param:rows']", "16000000")
    page.fill("#predict-form input[name='conf:vivace.slots']", "2")
    page.click("#predict-button")
    page.wait_for_url("**param%3Arows=16000000**")
    seconds = float(page.locator("#predicted-time").get_attribute("data-seconds"))
    assert 160 / 3 < seconds < 160 * 3  # the law: 2e-5 s x 16e6 rows / 2 slots
    assert "above the largest value measured (1600000)" in page.locator("#extrapolation").inner_text()
    assert page.locator("#nearest-runs tbody tr").count() == 3
    shot(page, "predict")


def test_recommending_for_a_deadline_and_refusing_an_impossible_one(server, page):
    page.goto(server + "/recommend?workload=terasort")
    page.fill("#recommend-form input[name=deadline]", "3")
    page.fill("#recommend-form input[name='param:rows']", "400000")
    page.click("#recommend-button")
    page.wait_for_url("**deadline=3**")
    best = page.locator("#recommend-table tr.chosen")
    assert (best.get_attribute("data-engine"), best.get_attribute("data-cluster")) == ("vivace", SMALL)
    assert "vivace.slots=4" in best.inner_text()
    assert page.locator("#next-run-spec").inner_text().startswith("# Measure this run on cluster")
    shot(page, "recommend")
    page.fill("#recommend-form input[name=deadline]", "0.3")
    page.click("#recommend-button")
    page.wait_for_url("**deadline=0.3**")
    assert page.locator("#recommend-problem").inner_text().startswith(
        "no configuration of terasort rows=400000 is predicted to finish within 0.3 s")
    shot(page, "recommend-impossible")
