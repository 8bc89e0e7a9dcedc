"""The models of every workload of a store, built on first use and kept until the workload's runs
change (a run recorded or deleted), so the web app's pages do not retrain on every request."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from vivace_lab.models.dataset import fingerprint, load_training_set, training_workloads
from vivace_lab.models.predict import RequestError
from vivace_lab.models.training import DEFAULT_SEED, NotEnoughRuns, WorkloadModel, build_model
from vivace_lab.store import Store


@dataclass(frozen=True)
class Overview:
    """One line of the models table: a workload's model, or why it has none."""

    workload: str
    runs: int
    model: WorkloadModel | None
    reason: str | None  # when there is no model


class ModelBook:
    def __init__(self, store: Store, seed: int = DEFAULT_SEED) -> None:
        self.store = store
        self.seed = seed
        self._models: dict[str, tuple[tuple, WorkloadModel | NotEnoughRuns]] = {}
        self._lock = threading.Lock()

    def workloads(self) -> dict[str, int]:
        """Workload -> successful timed runs."""
        return training_workloads(self.store)

    def model(self, workload: str) -> WorkloadModel:
        """The workload's models; RequestError when it has no runs, NotEnoughRuns when too few."""
        with self._lock:
            current = fingerprint(self.store, workload)
            if not current[0]:
                known = ", ".join(self.workloads()) or "none yet: `./vivace lab run aloja-sweep`"
                raise RequestError(f"no successful runs of workload '{workload}' (workloads with "
                                   f"runs: {known})")
            cached = self._models.get(workload)
            if cached is None or cached[0] != current:
                try:
                    built = build_model(load_training_set(self.store, workload), self.seed)
                except NotEnoughRuns as too_few:
                    built = too_few
                self._models[workload] = cached = (current, built)
        if isinstance(cached[1], NotEnoughRuns):
            raise cached[1]
        return cached[1]

    def overview(self, only: str | None = None) -> list[Overview]:
        lines = []
        for workload, runs in self.workloads().items():
            if only is not None and workload != only:
                continue
            try:
                lines.append(Overview(workload, runs, self.model(workload), None))
            except NotEnoughRuns as too_few:
                lines.append(Overview(workload, runs, None, str(too_few)))
        return lines

    def prices(self) -> dict[str, float | None]:
        """Hourly price of every cluster, read now (prices change without retraining)."""
        return {c.name: c.hourly_price for c in self.store.clusters()}
