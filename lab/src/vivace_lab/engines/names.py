"""Engine names and the workloads each runs; light, so a spec can be checked without starting any."""

from __future__ import annotations

from collections.abc import Collection

from vivace_lab.workloads.catalogue import WORKLOADS

# Every workload of the bench driver's catalogue, read when first used.
DRIVER_WORKLOADS = WORKLOADS.keys()

ENGINE_WORKLOADS: dict[str, Collection[str]] = {
    "vivace": DRIVER_WORKLOADS,
    "hadoop-local": DRIVER_WORKLOADS,
    "hadoop-yarn": DRIVER_WORKLOADS,
    "spark": ("sleep", "terasort", "wordcount"),
}
