"""The workloads the lab knows: their parameters, which engines run them, and their input size.

The bench driver (docs/run-record.md) implements the same names and parameters on the Java side;
the spark engine implements its own subset.
"""

from __future__ import annotations

from dataclasses import dataclass

from vivace_lab.workloads.params import Param

MIB = 1024 * 1024


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    params: tuple[Param, ...]

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def defaults(self) -> dict[str, int | float | str]:
        return {p.name: p.default for p in self.params}

    def input_bytes(self, values: dict[str, str]) -> int | None:
        """Bytes of input the run reads (what throughput is computed from); None when none."""
        if "rows" in values:
            return int(values["rows"]) * 100
        if "bytes" in values:
            return int(values["bytes"])
        if "files" in values:
            return int(values["files"]) * int(values["file_mb"]) * MIB
        return None


def _maps(default: int = 2) -> Param:
    return Param("maps", "int", default, 1, "map tasks (of the generator, for data-reading workloads)")


def _reduces() -> Param:
    # At least one: without a reduce the output of these jobs would not be sorted.
    return Param("reduces", "int", 1, 1, "reduce tasks")


WORKLOADS: dict[str, Workload] = {w.name: w for w in (
    Workload("sleep", "SleepJob whose splits keep the requested map count (the scheduling test)", (
        Param("maps", "int", 1, 1, "map tasks (-m)"),
        Param("reduces", "int", 1, 0, "reduce tasks (-r)"),
        Param("map_ms", "int", 1, 0, "milliseconds each map sleeps (-mt)"),
        Param("reduce_ms", "int", 1, 0, "milliseconds each reduce sleeps (-rt)"),
    )),
    Workload("terasort", "TeraGen, TeraSort, TeraValidate", (
        Param("rows", "int", 100_000, 1, "100-byte rows TeraGen writes"), _maps(), _reduces(),
    )),
    Workload("wordcount", "randomtextwriter (text) and WordCount", (
        Param("bytes", "size", 16 * MIB, 1, "bytes of text to generate"), _maps(), _reduces(),
    )),
    Workload("sort", "randomwriter and Sort, checked by Apache's SortValidator", (
        Param("bytes", "size", 16 * MIB, 1, "bytes of random records to generate"), _maps(), _reduces(),
    )),
    Workload("plasma-sort", "Plasma's 100-byte-line sort (65,536 distinct keys) into N partitions,"
             " checked by plasmavalidate; reports CPU seconds per GB", (
        Param("bytes", "size", 16 * MIB, 1, "bytes of 100-byte lines to generate"), _maps(),
        Param("reduces", "int", 80, 1, "output partitions (the study: 80)"),
        Param("seed", "int", 0, 0, "seed of the generator"),
    )),
    Workload("finra-query", "FINRA audit-trail query ('XLP' over the day, sorted by time) on the"
             " generated share-order table, checked against a single-process filter", (
        Param("bytes", "size", 16 * MIB, 1, "bytes of share-order rows to generate"), _maps(),
        Param("seed", "int", 0, 0, "seed of the generator"),
    )),
    Workload("finra-concurrency", "the FINRA query alone, then N streams of queries with think"
             " time; results.finra: isolated and mean concurrent time and their ratio", (
        Param("bytes", "size", 16 * MIB, 1, "bytes of share-order rows to generate"), _maps(),
        Param("seed", "int", 0, 0, "seed of the generator"),
        Param("isolated", "int", 3, 1, "runs of the query alone (the isolated time: their median)"),
        Param("streams", "int", 5, 1, "concurrent query streams (the study: 1 and 5)"),
        Param("queries", "int", 2, 1, "queries per stream"),
        Param("think_pct", "int", 10, 0, "think time between a stream's queries, % of the"
              " isolated query time (the study: 10)"),
    )),
    # Defaults: HiBench's tiny profile; small is samples=3000000 dims=20, large samples=20000000
    # dims=20, huge samples=100000000 dims=20 (clusters 5, k 10, 5 iterations in all of them).
    Workload("kmeans", "K-means, one job per iteration, on points around Gaussian clusters;"
             " checked against a single-process K-means up to 200,000 points", (
        Param("samples", "int", 30_000, 1, "points to generate"),
        Param("dims", "int", 3, 1, "dimensions of a point"),
        Param("clusters", "int", 5, 1, "Gaussian clusters the points are drawn around"),
        Param("k", "int", 10, 1, "centroids"),
        Param("iterations", "int", 5, 1, "iterations (jobs) at most"),
        Param("converge_milli", "int", 500, 0, "stop once no centroid moves more (1/1000 units)"),
        _maps(), Param("seed", "int", 0, 0, "seed of the generator"),
    )),
    # Defaults: HiBench's small profile; tiny is pages=50, large pages=500000, huge pages=5000000
    # (3 iterations in all of them).
    Workload("pagerank", "PageRank, one job per iteration, on a Zipf-linked graph; checked"
             " against a single-process PageRank up to 1,000,000 pages", (
        Param("pages", "int", 5_000, 2, "pages of the generated graph"),
        Param("iterations", "int", 3, 1, "iterations (jobs)"),
        _maps(), Param("reduces", "int", 2, 1, "reduce tasks of each iteration"),
        Param("seed", "int", 0, 0, "seed of the generator"),
    )),
    Workload("dfsio-write", "TestDFSIO -write", (
        Param("files", "int", 2, 1, "files (one map each)"),
        Param("file_mb", "int", 8, 1, "MB per file"),
    )),
    Workload("dfsio-read", "TestDFSIO -read of files a -write made", (
        Param("files", "int", 2, 1, "files (one map each)"),
        Param("file_mb", "int", 8, 1, "MB per file"),
    )),
    Workload("swim", "a SWIM trace replayed open loop at its submission times (SWIM's job synthesis)", (
        Param("trace", "text", "", 0, "the SWIM trace file (required; `vivace lab swim` finds FB-2010)"),
        Param("first_job", "int", 0, 0, "trace position of the first job replayed"),
        Param("jobs", "int", 0, 0, "at most this many jobs (0: no limit)"),
        Param("window_s", "int", 0, 0, "only jobs within this many seconds of trace time (0: no window)"),
        Param("cluster_nodes", "int", 1, 1, "machines replaying the trace (integer scale; SWIM's reducer cap)"),
        Param("trace_nodes", "int", 3000, 1, "machines of the traced cluster (integer scale)"),
        Param("scale_factor", "number", 0.0, 0, "sizes times this factor instead of cluster_nodes/trace_nodes (0: integer mode)"),
        Param("gap_compression", "number", 1.0, 0.001, "trace gaps divided by this (1: the trace's pace)"),
        Param("bytes_per_reduce", "size", 64 * MIB, 1, "shuffle + output bytes per reducer"),
        Param("pool_partitions", "int", 64, 1, "input partitions in the pool (each job reads consecutive ones)"),
        Param("block_size", "size", 4 * MIB, 64 * 1024, "bytes of one pool partition file (one block, one split)"),
        Param("seed", "int", 1, 0, "seed of every random choice (pool, partitions, records)"),
    )),
)}
