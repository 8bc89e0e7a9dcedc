"""What `vivace lab bench` runs: its command line's workloads, scales, sizes and codecs as a study
spec of the lab (workload points with the driver's parameters, the engines side by side, the
``alternate`` order)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.plan.spec import StudySpec, WorkloadPoint
from vivace_lab.timing.executor_loss import LOSS
from vivace_lab.timing.programs import PROGRAMS

# The driver's workloads the timing mode runs, at its own sizes (SCALES); `vivace lab run` runs
# every workload of the catalogue.
CATALOGUE_RUNS = ("sleep", "terasort", "wordcount", "sort", "plasma-sort", "finra-query",
                  "finra-concurrency", "kmeans", "pagerank")
DEFAULT_WORKLOADS = "sleep,terasort,wordcount,sort,latency,cold-start"
CLUSTER_WORKLOADS = ("latency", "sleep", "terasort", "wordcount", LOSS)
# The order of the table, whatever the order of --workloads.
ORDER = ("sleep", "terasort", "wordcount", "cold-start", "latency", "sort", "plasma-sort", "kmeans",
         "pagerank", "finra-query", "finra-concurrency", LOSS)
# --size: workloads whose input size can be set alone (terasort's in bytes, 100 per row; sleep's in maps).
SIZED = ("terasort", "wordcount", "sort", "sleep")
# Workloads with a shuffle, run once per --codecs entry.
SHUFFLING = ("terasort", "wordcount", "sort")

# --codecs: short name -> Hadoop codec class for mapreduce.map.output.compress.codec ("none": off).
# These work without libhadoop (Snappy and LZ4 through snappy-java and lz4-java).
CODECS = {
    "none": None,
    "default": "org.apache.hadoop.io.compress.DefaultCodec",
    "deflate": "org.apache.hadoop.io.compress.DeflateCodec",
    "gzip": "org.apache.hadoop.io.compress.GzipCodec",
    "bzip2": "org.apache.hadoop.io.compress.BZip2Codec",
    "snappy": "org.apache.hadoop.io.compress.SnappyCodec",
    "lz4": "org.apache.hadoop.io.compress.Lz4Codec",
}
CODEC_KEY = "mapreduce.map.output.compress.codec"

KMEANS_PROFILES = {  # HiBench's: samples, dimensions, clusters
    "tiny": (30_000, 3, 5), "small": (3_000_000, 20, 5), "large": (20_000_000, 20, 5)}


@dataclass(frozen=True)
class Scale:
    sleep_maps: int
    terasort_rows: int
    wordcount_bytes: int
    sort_bytes: int
    other_bytes: int  # plasma-sort's and finra's input
    kmeans: str  # a KMEANS_PROFILES name
    pagerank_pages: int
    latency_runs: tuple[int, int]  # timed empty jobs, warm-up jobs
    latency_maps: int  # tasks of LatencyBench's sleep job on Vivace (0: none)
    slow_latency: tuple[int, int, int]  # runs, warm-up, maps on engines with ~100 tasks/s or less


SCALES = {
    "tiny": Scale(200, 100_000, 16 << 20, 16 << 20, 16 << 20, "tiny", 5_000, (20, 5), 2000, (20, 5, 200)),
    "default": Scale(5000, 10_000_000, 256 << 20, 256 << 20, 256 << 20, "small", 500_000, (200, 20), 20_000,
                     (200, 20, 2000)),
    "large": Scale(5000, 100_000_000, 1 << 30, 1 << 30, 1 << 30, "large", 5_000_000, (1000, 20), 100_000,
                   (1000, 20, 5000)),
}
# On the mini-cluster MapReduce on YARN starts a JVM per task (seconds each on 2 cores) and an AM
# per job, hence far smaller sizes; `large` is 1000 maps, 1 GB, 1 GB. An empty job takes ~25 s on
# MapReduce on YARN, about a second on a warm session (928 ms median quiet, 27 Nov): 2 of them there, 20 on the session.
CLUSTER_SCALES = {
    "tiny": Scale(10, 100_000, 8 << 20, 0, 0, "tiny", 0, (20, 5), 0, (2, 1, 0)),
    "default": Scale(100, 1_000_000, 128 << 20, 0, 0, "tiny", 0, (20, 5), 0, (2, 1, 0)),
    "large": Scale(1000, 10_000_000, 1 << 30, 0, 0, "tiny", 0, (20, 5), 0, (2, 1, 0)),
}
# Engines that run far fewer tasks per second: LatencyBench gives them Scale.slow_latency.
SLOW_ENGINES = ("hadoop-local", "hadoop-yarn", "hadoop-tez")


def parse_sizes(specs: Sequence[str]) -> dict[str, int]:
    """`--size` values ("wordcount=1g") as workload -> bytes (sleep: maps)."""
    sizes = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or name not in SIZED:
            raise ValueError(f"--size {spec}: expected WORKLOAD=SIZE with WORKLOAD one of {', '.join(SIZED)}")
        number = value.lower().rstrip("b")
        unit = 1 << {"k": 10, "m": 20, "g": 30}.get(number[-1:], 0)
        number = number[:-1] if number[-1:] in "kmg" else number
        try:
            sizes[name] = int(float(number) * unit)
        except ValueError:
            raise ValueError(f"--size {spec}: {value!r} is not a size (bytes, or with k, m, g)") from None
        if sizes[name] <= 0:
            raise ValueError(f"--size {spec}: the size must be positive")
    return sizes


def driver_params(workload: str, scale: Scale, sizes: dict[str, int]) -> dict[str, str]:
    """The driver's parameters of one workload at this scale (those not given keep the driver's default)."""
    rows = sizes["terasort"] // 100 if "terasort" in sizes else scale.terasort_rows
    params: dict[str, object] = {
        "sleep": {"maps": sizes.get("sleep", scale.sleep_maps), "reduces": 1, "map_ms": 1, "reduce_ms": 1},
        "terasort": {"rows": rows},
        LOSS: {"rows": rows},
        "wordcount": {"bytes": sizes.get("wordcount", scale.wordcount_bytes)},
        "sort": {"bytes": sizes.get("sort", scale.sort_bytes), "reduces": 2},
        "plasma-sort": {"bytes": scale.other_bytes, "reduces": 80},
        "finra-query": {"bytes": scale.other_bytes},
        "finra-concurrency": {"bytes": scale.other_bytes, "streams": 5, "queries": 2, "think_pct": 10},
        "kmeans": dict(zip(("samples", "dims", "clusters"), KMEANS_PROFILES[scale.kmeans]),
                       k=10, iterations=5, converge_milli=0),
        "pagerank": {"pages": scale.pagerank_pages, "iterations": 3},
    }[workload]
    return {key: str(value) for key, value in params.items()}


def latency_params(scale: Scale, engine: str) -> dict[str, str]:
    if engine in SLOW_ENGINES:
        runs, warmup, maps = scale.slow_latency
    else:
        (runs, warmup), maps = scale.latency_runs, scale.latency_maps
    return {"runs": str(runs), "warmup": str(warmup), "maps": str(maps)}


def codec_overrides(codec: str) -> dict[str, str]:
    if CODECS[codec] is None:
        return {}
    return {"mapreduce.map.output.compress": "true", CODEC_KEY: CODECS[codec]}


def codec_of(overrides: dict[str, str]) -> str | None:
    """The --codecs name of a run's map output codec, None when uncompressed."""
    codec = overrides.get(CODEC_KEY)
    return next((name for name, cls in CODECS.items() if cls == codec and cls), None) if codec else None


def workload_points(workloads: Sequence[str], engines: Sequence[str], scale: Scale,
                    sizes: dict[str, int], codecs: Sequence[str]) -> list[WorkloadPoint]:
    points = []
    for workload in sorted(set(workloads), key=ORDER.index):
        if workload in PROGRAMS:
            if workload == "latency":  # each engine its own share of work
                points += [WorkloadPoint(workload, latency_params(scale, e), (e,)) for e in engines]
            else:
                points.append(WorkloadPoint(workload, {}, tuple(engines)))
            continue
        params = driver_params(workload, scale, sizes)
        if workload == LOSS:  # the session's engine only, against its undisturbed terasort
            points.append(WorkloadPoint(workload, params, tuple(engines[:1])))
        elif workload in SHUFFLING:
            points += [WorkloadPoint(workload, params, tuple(engines), codec_overrides(c)) for c in codecs]
        else:
            points.append(WorkloadPoint(workload, params, tuple(engines)))
    return points


def cluster_shape(nodes: int) -> ClusterShape:
    """N NodeManagers and N DataNodes of the lab's default sizes (3 GB NodeManagers, 1 GB
    containers); a single NodeManager gets 4 GB, so that MapReduce's ApplicationMaster and a task
    fit beside the session's master and executor (``SessionSize.fixed``)."""
    return ClusterShape(nodemanagers=nodes, datanodes=nodes, nm_memory_mb=4096 if nodes == 1 else 3072)


def timing_spec(name: str, workloads: Sequence[str], engines: Sequence[str], scale_name: str,
                sizes: dict[str, int], codecs: Sequence[str], repeats: int, cluster_nodes: int | None) -> StudySpec:
    """The study one `vivace lab bench` command runs."""
    scale = (CLUSTER_SCALES if cluster_nodes else SCALES)[scale_name]
    shape = cluster_shape(cluster_nodes) if cluster_nodes else ClusterShape()
    points = workload_points(workloads, engines, scale, sizes, codecs)
    text = json.dumps({"timing": {"workloads": list(workloads), "engines": list(engines), "scale": scale_name,
                                  "sizes": sizes, "codecs": list(codecs), "repeats": repeats,
                                  "cluster": cluster_nodes}}, sort_keys=True)
    return StudySpec(name=name, description="`vivace lab bench`: two engines side by side", seed=0,
                     repeats=repeats, engines=tuple(engines), workload_points=tuple(points), grid_points=({},),
                     text=text, cluster=shape, order="alternate")


def size_label(workload: str, params: dict[str, str]) -> str:
    """The table's size column for a run of ``workload`` with ``params``."""
    if workload == "sleep":
        return f"{params['maps']} maps x {params['map_ms']} ms"
    if workload in ("terasort", LOSS):
        return f"{int(params['rows']) * 100 / 1e9:.2f} GB"
    if workload == "latency":
        return f"{params['runs']} empty jobs, {params['maps']} maps"
    if workload == "cold-start":
        return "1 empty job"
    if workload == "kmeans":
        return f"{params['samples']} points, {params['iterations']} iter"
    if workload == "pagerank":
        return f"{params['pages']} pages, {params['iterations']} iter"
    if workload == "plasma-sort":
        return f"{int(params['bytes']) / 1e9:.2f} GB, {params['reduces']} parts"
    if workload == "finra-concurrency":
        return f"{int(params['bytes']) / 1e9:.2f} GB, {params['streams']} x {params['queries']}"
    if "bytes" in params:
        return f"{int(params['bytes']) / 1e9:.2f} GB"
    return ""


def table_label(workload: str, overrides: dict[str, str]) -> str:
    codec = codec_of(overrides)
    return f"{workload}+{codec}" if codec else workload
