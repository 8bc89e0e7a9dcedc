"""How fast the web app's pages are with a lab's worth of runs.

Seeds ``--runs`` runs (default 10,000) with ``--samples`` metric samples in all (default
1,000,000) through ``Store.record_run``, as lab/bench/store_bench.py does (TeraSort run records
with Hadoop's full configuration, varied over engines, workloads, sort buffers, maps and codecs),
plus one long run of ``--long-samples`` samples (default 50,000: 14 hours at one a second), then
requests every page through FastAPI's TestClient and prints the mean time of each (with
min and max). Nothing is
asserted: this is a measurement.

    lab/.venv/bin/python lab/bench/web_bench.py                       # SQLite file in a temp dir
    lab/.venv/bin/python lab/bench/web_bench.py --keep /tmp/web.db    # keep (or reuse) the database
    lab/.venv/bin/python lab/bench/web_bench.py --postgres            # throw-away PostgreSQL server
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

LAB = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(LAB / "tests"))
sys.path.insert(0, str(LAB / "bench"))

from rundata import samples as make_samples  # noqa: E402
from rundata import terasort_result  # noqa: E402
from store_bench import bench_database, build_results, timed  # noqa: E402

from vivace_lab.store import Store  # noqa: E402


def seed(store: Store, runs: int, samples: int, long_samples: int) -> float:
    for n in (1, 2):
        store.ensure_cluster(f"bench-{n}x8", {"nodes": n, "cores_per_node": 8}, 0.4 * n)
    started = time.perf_counter()
    last = started
    for i, result in enumerate(build_results(runs, samples, True)):
        store.record_run(result)
        if time.perf_counter() - last > 30:
            last = time.perf_counter()
            print(f"#   {i + 1} runs recorded, {last - started:.0f} s", flush=True)
    long_run = terasort_result(cluster="bench-1x8", sample_count=0, shift_ms=runs * 60_000)
    long_run.samples = make_samples(long_run.started_ms - 1000, long_samples)
    store.record_run(long_run)
    return time.perf_counter() - started


def pages(store: Store) -> list[tuple[str, str]]:
    runs = store.runs(workload="terasort", engine="vivace")
    some, last = runs[len(runs) // 2].id, max(r.id for r in store.runs())
    return [
        ("runs list, first page (50 of all)", "/runs"),
        ("runs list, filtered (workload, engine, status)",
         "/runs?workload=terasort&engine=vivace&status=succeeded"),
        ("runs list, configuration key filter", "/runs?conf=mapreduce.task.io.sort.mb=64"),
        ("runs list, sorted by time, page 100", "/runs?sort=duration&order=asc&page=100"),
        ("runs list, input size and date range",
         "/runs?min_size=1MB&max_size=1GB&since=2025-11-21&until=2026-12-31"),
        ("download CSV, one workload x engine (~1,100 runs)",
         "/runs.csv?workload=terasort&engine=vivace"),
        ("run detail, ~100 samples", f"/runs/{some}"),
        ("run detail, long run (downsampled)", f"/runs/{last}"),
        ("Paraver trace, ~100 samples", f"/runs/{some}/trace.prv"),
        ("compare terasort by engine (~3,300 runs)", "/compare?workload=terasort&by=engine"),
        ("compare by a configuration key",
         "/compare?workload=terasort&by=conf:mapreduce.task.io.sort.mb"),
        ("speedup, terasort by io_sort_mb", "/speedup?workload=terasort&param=io_sort_mb"),
        ("speedup by a configuration key, best by cost",
         "/speedup?workload=terasort&param=conf:mapreduce.job.maps&rank=cost"),
        ("cost, terasort", "/cost?workload=terasort"),
        ("studies", "/studies"),
        ("sleep test", "/studies/sleep"),
        ("TestDFSIO", "/studies/dfsio"),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples in all")
    parser.add_argument("--long-samples", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5, help="requests per page")
    parser.add_argument("--keep", help="SQLite file to seed (or reuse, if it holds runs already)")
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL server")
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient

    from vivace_lab.web import create_app

    with bench_database(args.postgres, args.keep, "web") as url:
        with Store(url) as store:
            if not store.runs(workload="terasort", engine="vivace"):
                seconds = seed(store, args.runs, args.samples, args.long_samples)
                print(f"# seeded {args.runs + 1} runs in {seconds:.0f} s")
            print(f"# {store!r}")
            client = TestClient(create_app(store))
            rows: list[tuple[str, str]] = []
            for label, path in pages(store):
                response = timed(label, rows, lambda: client.get(path), repeat=args.repeat)
                if response.status_code != 200:
                    rows[-1] = (label, f"{rows[-1][1]}  HTTP {response.status_code}")
                print(f"{rows[-1][0]}: {rows[-1][1]}", flush=True)
            width = max(len(label) for label, _ in rows)
            print(f"\n{'page':<{width}}  mean of {args.repeat} requests")
            for label, value in rows:
                print(f"{label:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
