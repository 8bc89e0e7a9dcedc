"""Engine names and the workloads each runs; light, so a spec can be checked without starting any."""

from __future__ import annotations

DRIVER_WORKLOADS = ("sleep", "terasort", "wordcount", "sort", "dfsio-write", "dfsio-read",
                    "plasma-sort", "finra-query", "finra-concurrency", "kmeans",
                    "pagerank", "swim")

ENGINE_WORKLOADS: dict[str, tuple[str, ...]] = {
    "vivace": DRIVER_WORKLOADS,
    "hadoop-local": DRIVER_WORKLOADS,
    "hadoop-yarn": DRIVER_WORKLOADS,
    "spark": ("sleep", "terasort", "wordcount"),
}
