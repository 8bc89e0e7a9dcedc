"""How the results database copes with a lab's worth of runs.

Records ``--runs`` runs (default 10,000) through ``Store.record_run``, one transaction each, with
``--samples`` metric samples in all (default 1,000,000), then times the reads the CLI and a web app
make: the list of all runs, filtered lists, one run's detail, one run's samples, exports.

Each run is the TeraSort run record of the tests (lab/tests/data/terasort-vivace.json: three jobs,
their tasks and counters, and Hadoop's full default configuration, ~690 keys), varied over a grid
of engines, workloads, io.sort.mb, maps and codecs. Timings are printed, nothing is asserted.

    lab/.venv/bin/python lab/bench/store_bench.py                     # SQLite file in a temp dir
    lab/.venv/bin/python lab/bench/store_bench.py --postgres          # throw-away PostgreSQL server
    lab/.venv/bin/python lab/bench/store_bench.py --url postgresql://user@host/db
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

LAB = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(LAB / "tests"))

from rundata import samples as make_samples  # noqa: E402
from rundata import terasort_result  # noqa: E402

from vivace_lab.store import Store, export_runs, hibench_report  # noqa: E402

ENGINES = ("vivace", "hadoop-local", "yarn")
WORKLOADS = ("terasort", "sort", "wordcount")
SORT_MB = ("16", "32", "64", "128")
CODECS = ("org.apache.hadoop.io.compress.DefaultCodec", "org.apache.hadoop.io.compress.SnappyCodec",
          "org.apache.hadoop.io.compress.Lz4Codec", None)


def build_results(runs: int, samples_total: int, full_config: bool):
    """Yields the RunResults one at a time (building them all first would hold GBs)."""
    per_run, extra = divmod(samples_total, runs)
    base = terasort_result(sample_count=1)
    sample_pool = make_samples(base.started_ms - 1000, per_run + 1)
    for i in range(runs):
        engine, workload = ENGINES[i % 3], WORKLOADS[(i // 3) % 3]
        overrides = {"mapreduce.task.io.sort.mb": SORT_MB[(i // 9) % 4],
                     "mapreduce.job.maps": str(1 + (i // 36) % 8)}
        codec = CODECS[(i // 288) % 4]
        overrides["mapreduce.map.output.compress"] = "true" if codec else "false"
        if codec:
            overrides["mapreduce.map.output.compress.codec"] = codec
        result = terasort_result(cluster=f"bench-{i % 2 + 1}x8", engine=engine, repeat=i % 5,
                                 overrides=overrides, sample_count=0, shift_ms=i * 60_000)
        result.workload = workload
        if not full_config:
            result.record["configuration"] = dict(overrides)
        count = per_run + (1 if i < extra else 0)
        shift = i * 60_000
        result.samples = [_shifted(s, shift) for s in sample_pool[:count]]
        yield result


def _shifted(sample, shift):
    return replace(sample, t_ms=sample.t_ms + shift)


def timed(label: str, rows: list, fn, repeat: int = 1):
    times = []
    value = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    mean = statistics.mean(times)
    spread = f" (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})" if repeat > 1 else ""
    rows.append((label, f"{mean * 1000:.1f} ms{spread}"))
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="database URL or SQLite path (default: temp SQLite file)")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throw-away PostgreSQL server (as the tests do)")
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples in all")
    parser.add_argument("--small-config", action="store_true",
                        help="store only the grid's keys as configuration, not ~690")
    args = parser.parse_args(argv)

    with bench_database(args.postgres, args.url, "store") as url:
        return run_bench(url, args)


@contextmanager
def bench_database(postgres: bool, url: str | None, name: str) -> Iterator[str]:
    """URL of the database to measure: a throw-away PostgreSQL server's, ``url``, or an SQLite
    file in a temporary folder; the server and the folder go when the block ends."""
    server = None
    tmp = tempfile.TemporaryDirectory(prefix=f"vivace-{name}-bench-")
    try:
        if postgres:
            from postgres_server import PostgresServer

            server = PostgresServer.obtain()
            print(f"# {server.how}")
            yield server.url
        else:
            yield url or str(Path(tmp.name) / "bench.db")
    finally:
        if server is not None:
            server.stop()
        tmp.cleanup()


def run_bench(url: str, args) -> int:
    store = Store(url)
    try:
        for n in (1, 2):
            store.ensure_cluster(f"bench-{n}x8", {"nodes": n, "cores_per_node": 8}, 0.4 * n)
        print(f"# {store!r}: {args.runs} runs, {args.samples} samples, "
              f"{'grid keys only' if args.small_config else 'full configuration'}")
        insert_s = 0.0  # inside record_run only, not building the results
        last_report = time.perf_counter()
        for i, result in enumerate(build_results(args.runs, args.samples, not args.small_config)):
            t0 = time.perf_counter()
            store.record_run(result)
            now = time.perf_counter()
            insert_s += now - t0
            if now - last_report > 30:
                print(f"#   {i + 1} runs recorded, {insert_s:.0f} s in record_run", flush=True)
                last_report = now
        rows: list[tuple[str, str]] = [
            ("record_run x runs, total", f"{insert_s:.1f} s"),
            ("record_run, per run", f"{insert_s / args.runs * 1000:.2f} ms"),
            ("runs/s, samples/s", f"{args.runs / insert_s:.0f}, {args.samples / insert_s:.0f}"),
        ]
        ids = [r.id for r in store.runs()]
        rng = random.Random(1)
        picks = [rng.choice(ids) for _ in range(50)]
        it = iter(picks * 10)
        timed(f"runs() all {len(ids)}", rows, store.runs, repeat=5)
        timed("runs(workload, engine)", rows,
              lambda: store.runs(workload="sort", engine="vivace"), repeat=5)
        timed("runs(status)", rows,
              lambda: store.runs(status="succeeded"), repeat=5)
        timed("run(id) detail (config, jobs, tasks, counters)", rows,
              lambda: store.run(next(it)), repeat=50)
        got = timed(f"samples(id), ~{args.samples // args.runs} per run", rows,
                    lambda: store.samples(next(it)), repeat=50)
        rows.append(("  samples read per call", str(len(got))))
        timed("config_values(grid keys) all runs", rows,
              lambda: store.config_values(["mapreduce.task.io.sort.mb", "mapreduce.job.maps"]),
              repeat=3)
        timed("export_runs csv, all runs", rows,
              lambda: export_runs(store, "csv", io.StringIO()), repeat=3)
        timed("hibench_report, all runs", rows,
              lambda: hibench_report(store, io.StringIO()), repeat=3)
        if store.dialect == "sqlite":
            path = Path(store._engine.url.database)
            size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
            rows.append(("SQLite file size (db + wal)", f"{size / 2**20:.0f} MiB"))
        width = max(len(label) for label, _ in rows)
        for label, value in rows:
            print(f"{label:<{width}}  {value}")
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
