"""The Models, Predict and Recommend pages over a database with a known law (modeldata.py): every
number shown is the models' own, bad input is a 400 page naming the parameter."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from modeldata import SLEEP_RUNS, SMALL, law_store  # noqa: F401  (the fixture)

from vivace_lab.models import ModelBook, Request, predict, recommend
from vivace_lab.models.evaluation import CV, UNSEEN
from vivace_lab.store import Store
from vivace_lab.web import create_app


@pytest.fixture(scope="module")
def client(law_store):
    return TestClient(create_app(law_store))


@pytest.fixture(scope="module")
def book(law_store):
    return ModelBook(law_store)


class _ElementText(HTMLParser):
    """The text inside the element with a given id, nested elements included."""

    def __init__(self, element_id: str) -> None:
        super().__init__()
        self.element_id, self.depth, self.found, self.parts = element_id, 0, False, []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += tag not in VOID
        elif dict(attrs).get("id") == self.element_id:
            self.depth, self.found = 1, True

    def handle_endtag(self, tag):
        if self.depth and tag not in VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


VOID = {"input", "br", "img", "meta", "link", "hr"}


def text_of(page: str, element_id: str) -> str:
    parser = _ElementText(element_id)
    parser.feed(page)
    assert parser.found, f"no #{element_id}"
    return " ".join("".join(parser.parts).split())


def test_the_models_page_shows_every_workload_and_the_error_table(client, book):
    page = client.get("/models?workload=terasort")
    assert page.status_code == 200
    model = book.model("terasort")
    overview = text_of(page.text, "models-overview")
    assert f"{SLEEP_RUNS} runs: not enough for a model of sleep" in overview
    chosen = model.results[model.chosen]
    assert f"{100 * chosen.mape(CV):.1f} %" in overview and f"{100 * chosen.mape(UNSEEN):.1f} %" in overview
    rows = re.findall(r'<tr[^>]*data-family="(\w+)"', page.text)
    assert rows == ["linear", "tree", "forest", "boosting", "knn"]
    assert 'class="chosen" data-family="linear"' in page.text
    # one chart per test, a point per run predicted by a model that had not seen it
    for scheme, count in (("cv", 120), ("unseen", 120), ("extrapolation", 24)):
        chart = re.search(rf'id="chart-{scheme}">(.*?)</figure>', page.text, re.S).group(1)
        assert chart.count('class="point"') == count
    validation = chosen.validations[CV]
    first = re.search(r'id="chart-cv">.*?data-x="([\d.e+-]+)" data-y="([\d.e+-]+)"', page.text, re.S)
    assert float(first.group(1)) == pytest.approx(validation.measured_s[0], rel=1e-5)
    assert float(first.group(2)) == pytest.approx(validation.predicted_s[0], rel=1e-5)


def test_a_workload_with_too_few_runs_says_so(client):
    page = client.get("/models?workload=sleep")
    assert page.status_code == 200
    assert f"{SLEEP_RUNS} runs: not enough for a model of sleep" in text_of(page.text, "not-enough")
    predict_page = client.get("/predict?workload=sleep")
    assert "not enough for a model of sleep" in text_of(predict_page.text, "not-enough")


@pytest.mark.integration
def test_the_predict_page_shows_the_models_prediction(client, book):
    page = client.get(f"/predict?workload=terasort&engine=vivace&cluster={SMALL}"
                      "&param:rows=400000&conf:vivace.slots=2")
    assert page.status_code == 200
    expected = predict(book.model("terasort"), Request(
        "terasort", {"rows": "400000"}, {"vivace.slots": "2"}, "vivace", SMALL), book.prices())
    seconds = re.search(r'id="predicted-time" data-seconds="([\d.e+-]+)"', page.text).group(1)
    assert float(seconds) == pytest.approx(expected.estimate.time_s, rel=1e-5)
    assert 'id="extrapolation"' not in page.text
    near = text_of(page.text, "nearest-runs")
    assert f"{expected.nearest[0].run_id}" in near and "same settings" in near
    assert 'value="400000"' in page.text  # the form keeps what was asked


@pytest.mark.integration
def test_the_predict_page_warns_outside_the_measured_range(client):
    page = client.get("/predict?workload=terasort&param:rows=16000000")
    assert "rows=16000000 is above the largest value measured (1600000)" in text_of(page.text,
                                                                                    "extrapolation")


@pytest.mark.integration
def test_the_recommend_page_shows_the_answer_and_the_next_run(client, book):
    page = client.get("/recommend?workload=terasort&deadline=3&param:rows=400000")
    assert page.status_code == 200
    answer = recommend(book.model("terasort"), Request("terasort", {"rows": "400000"}), 3.0,
                       book.prices())
    first = re.search(r'<tr class="chosen" data-engine="([\w-]+)" data-cluster="([\w-]+)"',
                      page.text)
    assert first.groups() == ("vivace", SMALL) == (answer.best.settings["engine"],
                                                     answer.best.settings["cluster"])
    assert len(re.findall(r"<tr[^>]*data-engine=", page.text)) == 1 + len(answer.alternatives)
    spec = re.search(r'<pre id="next-run-spec">(.*?)</pre>', page.text, re.S).group(1)
    assert html.unescape(spec) == answer.next_run.spec_text


@pytest.mark.integration
def test_the_recommend_page_refuses_an_impossible_deadline(client):
    page = client.get("/recommend?workload=terasort&deadline=0.3&param:rows=400000")
    assert page.status_code == 200
    assert text_of(page.text, "recommend-problem").startswith(
        "no configuration of terasort rows=400000 is predicted to finish within 0.3 s")
    assert 'id="recommend-table"' not in page.text


@pytest.mark.parametrize("url, message", [
    ("/models?workload=nope", "workload: no successful runs of workload 'nope'"),
    ("/predict?workload=terasort&colour=red", "colour: not a setting"),
    ("/recommend?workload=terasort&deadline=soon", "deadline: 'soon' is not a number"),
])
def test_bad_input_is_a_400_page_naming_the_parameter(client, url, message):
    page = client.get(url)
    assert page.status_code == 400
    assert message in html.unescape(page.text)


@pytest.mark.integration
def test_a_request_the_models_cannot_answer_is_shown_on_the_form(client):
    page = client.get("/predict?workload=terasort&param:rowz=3")
    assert page.status_code == 200
    assert "parameter 'rowz': no terasort run" in text_of(page.text, "predict-problem")


def test_the_pages_say_what_to_run_when_there_are_no_runs(tmp_path):
    with Store(str(tmp_path / "empty.db")) as store:
        client = TestClient(create_app(store))
        for path in ("/models", "/predict", "/recommend"):
            page = client.get(path)
            assert page.status_code == 200
            assert "./vivace lab run aloja-sweep" in page.text
