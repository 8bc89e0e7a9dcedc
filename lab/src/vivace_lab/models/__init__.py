"""Models learned from the stored runs: what a run of a workload will take, and cost, in a given
configuration, how sure that is, and which configuration meets a deadline most cheaply.

    book = ModelBook(store)
    model = book.model("terasort")                 # every family evaluated, the best chosen
    predict(model, Request("terasort", {"rows": "1000000"}, engine="vivace"), book.prices())
    recommend(model, Request("terasort", {"rows": "1000000"}), 60.0, book.prices())

Modules: ``dataset`` (runs to a table of settings), ``features`` (settings to numbers),
``families`` (the model families), ``evaluation`` (cross-validation, unseen configurations,
extrapolation), ``training`` (the chosen model and its intervals), ``predict``, ``recommend``,
``book`` (models kept per workload until its runs change). lab/docs/models.md explains them.
"""

from vivace_lab.models.book import ModelBook, Overview
from vivace_lab.models.predict import Prediction, Request, RequestError, predict
from vivace_lab.models.recommend import NoConfiguration, Recommendation, recommend
from vivace_lab.models.training import MIN_RUNS, NotEnoughRuns, WorkloadModel, build_model

__all__ = [
    "MIN_RUNS",
    "ModelBook",
    "NoConfiguration",
    "NotEnoughRuns",
    "Overview",
    "Prediction",
    "Recommendation",
    "Request",
    "RequestError",
    "WorkloadModel",
    "build_model",
    "predict",
    "recommend",
]
