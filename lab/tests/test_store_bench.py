"""The store bench (lab/bench/store_bench.py) still runs, at a small scale."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "store_bench.py"


def test_store_bench_runs_small(store_url, capsys):
    spec = importlib.util.spec_from_file_location("store_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--url", store_url, "--runs", "24", "--samples", "2400"]) == 0
    out = capsys.readouterr().out
    assert "record_run, per run" in out
    assert re.search(r"samples read per call\s+100\n", out)
