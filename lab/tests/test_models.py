"""The models against a known law (modeldata.py: time = c x rows / slots, per engine and cluster,
5 % lognormal noise), recorded through the real store: what they learn, how they predict and
extrapolate, what they recommend and refuse."""

from __future__ import annotations

import math
import re

import pytest
from modeldata import (  # noqa: F401  (law_store: the fixture)
    BIG, ROWS, SLEEP_RUNS, SMALL, law, law_store, seed_bundled, seed_law,
)

from vivace_lab.models import (
    MIN_RUNS, ModelBook, NoConfiguration, NotEnoughRuns, Request, RequestError, predict, recommend,
)
from vivace_lab.models.dataset import load_training_set
from vivace_lab.models.evaluation import CV, EXTRAPOLATION, UNSEEN
from vivace_lab.models.bundles import companions, key_groups
from vivace_lab.plan.spec import parse_spec
from vivace_lab.record import SUCCEEDED, RunResult
from vivace_lab.store import Store

# Stated errors: with 5 % noise a model of the right form has a MAPE of about 4 %.
LEARNED_MAPE = 0.10
EXTRAPOLATED_MAPE = 0.15


@pytest.fixture(scope="module")
def book(law_store):
    return ModelBook(law_store)


@pytest.fixture(scope="module")
def model(book):
    return book.model("terasort")


def test_training_set_holds_every_setting_of_the_runs(store):
    """On SQLite and PostgreSQL: one row per successful run, its settings as the store has them."""
    count = seed_law(store)
    training = load_training_set(store, "terasort")
    assert len(training) == count
    assert training.settings == ("engine", "cluster", "param:maps", "param:reduces", "param:rows",
                                 "conf:mapreduce.task.io.sort.mb", "conf:vivace.slots",
                                 "hw:cores", "hw:memory_gib", "hw:nodes")
    rows = training.frame.to_dict("records")
    first = min(rows, key=lambda r: r["run_id"])
    assert (first["engine"], first["cluster"], first["param:rows"], first["conf:vivace.slots"],
            first["hw:cores"]) == ("vivace", SMALL, str(ROWS[0]), "1", "2")
    for row in rows:
        truth = law(int(row["param:rows"]), int(row["conf:vivace.slots"]), row["engine"],
                    row["cluster"])
        assert abs(math.log(row["duration_s"] / truth)) < 0.3  # the noise, no more
    assert len(set(training.configuration_ids())) == 2 * 2 * 3 * 2  # engine, cluster, slots, sort


def test_the_models_learn_the_law_within_the_stated_error(model):
    assert model.runs == 120 and not model.missing
    # the law is a straight line in log time, log rows and log slots: the linear family wins
    assert model.chosen == "linear" and model.chosen_by == UNSEEN
    chosen = model.results["linear"]
    assert chosen.mape(CV) < LEARNED_MAPE
    assert chosen.mape(UNSEEN) < LEARNED_MAPE
    assert chosen.validations[CV].errors.r2 > 0.98
    assert chosen.mape(EXTRAPOLATION) < EXTRAPOLATED_MAPE
    # trees cannot go beyond the sizes they saw, and the table says so
    assert model.results["tree"].mape(EXTRAPOLATION) > 0.3
    assert model.results["forest"].mape(EXTRAPOLATION) > 0.3
    for result in model.results.values():
        assert set(result.validations) == {CV, UNSEEN, EXTRAPOLATION}
        assert result.validations[EXTRAPOLATION].errors.runs == 24  # every run of the largest size
    within = chosen.validations[EXTRAPOLATION].errors.within
    assert within is not None and 0 <= within <= 1


@pytest.mark.integration
def test_a_prediction_inside_the_range_is_close_and_its_interval_holds_the_truth(model, book):
    truth = law(400_000, 2, "vivace", SMALL)
    result = predict(model, Request("terasort", {"rows": "400000"}, {"vivace.slots": "2"},
                                    engine="vivace", cluster=SMALL), book.prices())
    e = result.estimate
    assert abs(e.time_s / truth - 1) < LEARNED_MAPE
    assert e.low_s < truth < e.high_s
    assert e.cost == pytest.approx(e.time_s * 1.0 / 3600)
    assert not result.extrapolating
    assert e.configuration_runs == 5 and e.measured_runs == 1
    assert result.defaulted == ("conf:mapreduce.task.io.sort.mb",)
    # the nearest measured run is the one with these very settings
    assert result.nearest[0].differences == ""
    assert abs(result.nearest[0].duration_s / truth - 1) < 0.3


@pytest.mark.integration
def test_a_prediction_beyond_the_largest_size_is_flagged_and_of_the_right_magnitude(model, book):
    rows = ROWS[-1] * 10
    truth = law(rows, 2, "vivace", SMALL)
    result = predict(model, Request("terasort", {"rows": str(rows)}, {"vivace.slots": "2"},
                                    engine="vivace", cluster=SMALL), book.prices())
    assert result.extrapolating
    assert result.outside == (f"rows={rows} is above the largest value measured ({ROWS[-1]})",)
    assert truth / 3 < result.estimate.time_s < truth * 3


@pytest.mark.integration
def test_a_request_the_models_cannot_answer_names_what_is_wrong(model, book):
    prices = book.prices()
    with pytest.raises(RequestError, match=r"parameter 'rowz': no terasort run .* \(they have: "
                                           r"maps, reduces, rows\)"):
        predict(model, Request("terasort", {"rowz": "1"}), prices)
    with pytest.raises(RequestError, match=r"configuration key 'mapreduce.job.maps'"):
        predict(model, Request("terasort", sets={"mapreduce.job.maps": "4"}), prices)
    with pytest.raises(RequestError, match=r"engine 'hadoop-yarn': no terasort runs on it .*"
                                           r"hadoop-local, vivace"):
        predict(model, Request("terasort", engine="hadoop-yarn"), prices)
    with pytest.raises(RequestError, match=r"slots=many: a number is needed"):
        predict(model, Request("terasort", sets={"vivace.slots": "many"}), prices)


@pytest.mark.parametrize("deadline, cluster", [
    (3.0, SMALL),  # the small cluster's fastest (2 s) makes it, and it is the cheaper cluster
    (1.2, BIG),  # only the big cluster's fastest (0.8 s) makes it
])
@pytest.mark.integration
def test_recommend_picks_the_known_cheapest_configuration_meeting_the_deadline(
        model, book, deadline, cluster):
    answer = recommend(model, Request("terasort", {"rows": "400000"}), deadline, book.prices())
    best = answer.best.settings
    assert (best["engine"], best["cluster"], best["conf:vivace.slots"]) == ("vivace", cluster, "4")
    assert answer.considered == 24
    assert answer.searched == ("engine", "cluster", "mapreduce.task.io.sort.mb", "vivace.slots")
    ranked = [answer.best, *answer.alternatives]
    assert [e.cost for e in ranked] == sorted(e.cost for e in ranked)
    assert all(e.time_s <= deadline for e in ranked)
    assert abs(answer.best.time_s / law(400_000, 4, "vivace", cluster) - 1) < LEARNED_MAPE


@pytest.mark.integration
def test_recommend_refuses_an_impossible_deadline_saying_how_close_it_gets(model, book):
    with pytest.raises(NoConfiguration) as refused:
        recommend(model, Request("terasort", {"rows": "400000"}), 0.3, book.prices())
    message = str(refused.value)
    assert message.startswith("no configuration of terasort rows=400000 is predicted to finish "
                              "within 0.3 s: the fastest is engine=vivace cluster=big-8c")
    assert re.search(r"vivace\.slots=4 at 0\.[78]\d* s \(90% interval 0\.\d+-0\.\d+ s\)$", message)


@pytest.mark.integration
def test_recommend_respects_a_budget(model, book):
    cheapest = law(400_000, 4, "vivace", SMALL) * 1.0 / 3600
    with pytest.raises(NoConfiguration, match=r"for at most 0.0004: the cheapest that meets the "
                                              r"deadline costs 0.000"):
        recommend(model, Request("terasort", {"rows": "400000"}), 10.0, book.prices(), budget=0.0004)
    answer = recommend(model, Request("terasort", {"rows": "400000"}), 10.0, book.prices(),
                       budget=cheapest * 1.3)
    assert all(e.cost <= cheapest * 1.3 for e in (answer.best, *answer.alternatives))


def test_the_most_informative_run_is_a_study_spec_that_checks(model, book, hadoop_keys):
    answer = recommend(model, Request("terasort", {"rows": "400000"}), 3.0, book.prices())
    chosen = answer.next_run.estimate
    assert chosen.low_s <= 3.0 and chosen.cost_low <= answer.best.cost_high  # a contender
    spec = parse_spec(answer.next_run.spec_text, "next.yaml", hadoop_keys)
    assert spec.name == answer.next_run.spec_name and spec.repeats == 1
    assert spec.engines == (chosen.settings["engine"],)
    [point] = spec.workload_points
    assert point.workload == "terasort" and point.params["rows"] == "400000"
    assert spec.grid_points == ({"mapreduce.task.io.sort.mb": chosen.settings["conf:mapreduce.task.io.sort.mb"],
                                 "vivace.slots": chosen.settings["conf:vivace.slots"]},)
    assert f"on cluster {chosen.settings['cluster']}" in answer.next_run.spec_text


def test_too_few_runs_are_said_plainly(book):
    lines = {line.workload: line for line in book.overview()}
    assert lines["sleep"].model is None
    assert lines["sleep"].reason == (f"{SLEEP_RUNS} runs: not enough for a model of sleep "
                                     f"(at least {MIN_RUNS} successful runs)")
    with pytest.raises(NotEnoughRuns):
        book.model("sleep")
    with pytest.raises(RequestError, match="no successful runs of workload 'wordcount'"):
        book.model("wordcount")


def test_models_are_kept_until_the_runs_change(tmp_path):
    with Store(str(tmp_path / "lab.db")) as store:
        seed_bundled(store)
        book = ModelBook(store)
        first = book.model("terasort")
        assert book.model("terasort") is first
        store.record_run(RunResult(
            workload="terasort", engine="vivace", cluster=SMALL,
            params={"rows": "100000", "maps": "2", "reduces": "1"},
            overrides={"vivace.slots": "1", "mapreduce.local.map.tasks.maximum": "1"},
            status=SUCCEEDED, started_ms=1, finished_ms=2001, duration_s=2.0))
        again = book.model("terasort")
        assert again is not first and again.runs == first.runs + 1


@pytest.mark.integration
def test_keys_that_always_changed_together_are_searched_together(tmp_path):
    """A grid bundle (vivace.slots with the LocalJobRunner's slot key) is one dimension: no
    recommendation pairs values the runs never had together."""
    with Store(str(tmp_path / "lab.db")) as store:
        seed_bundled(store)
        book = ModelBook(store)
        answer = recommend(book.model("terasort"), Request("terasort", {"rows": "400000"}), 100.0,
                           book.prices(), alternatives=10)
    assert answer.considered == 2 * 3  # engines x slot bundles, not x 3 x 3
    assert answer.searched == ("engine", "mapreduce.local.map.tasks.maximum", "vivace.slots")
    for e in (answer.best, *answer.alternatives):
        assert e.settings["conf:vivace.slots"] == e.settings["conf:mapreduce.local.map.tasks.maximum"]


def test_keys_are_grouped_when_one_tells_the_other():
    compress = ["false", "true", "true", "false", "true", "true"]
    codec = ["DefaultCodec", "Lz4Codec", "GzipCodec", "DefaultCodec", "Lz4Codec", "GzipCodec"]
    sort_mb = ["16", "16", "16", "64", "64", "64"]
    slots = ["1", "2", "2", "1", "2", "2"]
    assert key_groups({"compress": compress, "codec": codec, "sort_mb": sort_mb}) == \
        [["compress", "codec"], ["sort_mb"]]
    # a sampled grid can tie keys the spec did not: then only their measured combinations count
    assert key_groups({"compress": compress, "slots": slots, "sort_mb": sort_mb}) == \
        [["compress", "slots"], ["sort_mb"]]
    # a request that sets one key of a group gets the others as the runs had them
    assert companions({"compress": compress, "codec": codec, "sort_mb": sort_mb},
                      {"codec": "GzipCodec"}) == {"compress": "true"}
    assert companions({"compress": compress, "codec": codec}, {"compress": "true"}) == {}


@pytest.mark.integration
def test_setting_one_key_of_a_bundle_sets_the_others_as_the_runs_had_them(tmp_path):
    with Store(str(tmp_path / "lab.db")) as store:
        seed_bundled(store)
        book = ModelBook(store)
        result = predict(book.model("terasort"), Request("terasort", {"rows": "400000"},
                                                         {"vivace.slots": "4"}, "vivace"),
                         book.prices())
    assert result.estimate.settings["conf:mapreduce.local.map.tasks.maximum"] == "4"
    assert result.defaulted == ()
    assert result.estimate.configuration_measured
