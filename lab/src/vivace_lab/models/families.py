"""The model families compared for every workload. All learn log(seconds) from the features, so
errors are relative (a run's noise is) and a power law of size and slots is a straight line.

- ``linear``: ridge regression on the log features: the baseline, and the only family that can
  follow a trend beyond the sizes measured;
- ``tree``: one regression tree (CART), the family of ALOJA's M5P, without M5P's linear models in
  the leaves (scikit-learn has none);
- ``forest``: a random forest of such trees;
- ``boosting``: gradient-boosted shallow trees;
- ``knn``: the distance-weighted mean of the nearest measured runs, features standardised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor


@dataclass(frozen=True)
class Family:
    name: str
    description: str
    make: Callable[[int, int], object]  # (seed, training rows) -> an unfitted scikit-learn model


def _linear(seed: int, rows: int):
    return make_pipeline(StandardScaler(), Ridge(alpha=1e-3))


def _tree(seed: int, rows: int):
    return DecisionTreeRegressor(random_state=seed)


def _forest(seed: int, rows: int):
    return RandomForestRegressor(n_estimators=50, random_state=seed, n_jobs=1)


def _boosting(seed: int, rows: int):
    return GradientBoostingRegressor(n_estimators=100, max_depth=3, learning_rate=0.1,
                                     subsample=0.9 if rows >= 20 else 1.0, random_state=seed)


def _knn(seed: int, rows: int):
    return make_pipeline(StandardScaler(),
                         KNeighborsRegressor(n_neighbors=max(1, min(5, rows)), weights="distance"))


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("linear", "ridge regression on log time and log sizes (baseline)", _linear),
    Family("tree", "regression tree (CART; ALOJA's M5P family, no leaf models)", _tree),
    Family("forest", "random forest, 50 trees", _forest),
    Family("boosting", "gradient boosting, 100 trees of depth 3", _boosting),
    Family("knn", "k nearest runs (k=5, distance-weighted, standardised)", _knn),
)}
