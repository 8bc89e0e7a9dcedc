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
