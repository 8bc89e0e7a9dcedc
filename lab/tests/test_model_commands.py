"""`vivace lab models`, `predict` and `recommend` as a user types them, over a database with a
known law (modeldata.py)."""

from __future__ import annotations

import pytest
import re

from modeldata import SLEEP_RUNS, SMALL, law_store  # noqa: F401  (the fixture)

from vivace_lab.cli import EXIT_BAD_INPUT, main
from vivace_lab.plan.spec import parse_spec


def run(capsys, law_store, tmp_path, *args: str) -> tuple[int, str]:  # noqa: F811
    code = main(["--db", law_store.url, "--home", str(tmp_path), *args])
    out = capsys.readouterr()
    return code, " ".join((out.out + out.err).split())


def test_models_prints_each_family_three_ways_and_says_what_is_too_few(capsys, law_store, tmp_path):  # noqa: F811
    code, out = run(capsys, law_store, tmp_path, "models")
    assert code == 0
    assert f"sleep: {SLEEP_RUNS} runs: not enough for a model of sleep (at least 20 successful runs)" in out
    assert "terasort: 120 runs, 24 configurations; chosen: linear, the lowest MAPE on unseen configurations" in out
    for header in ("cv MAPE", "unseen MAPE", "largest size MAPE", "in 90% interval"):
        assert header in out
    assert re.search(r"linear \* │ [\d.]+ │ \d\.\d% │ 0\.99\d", out)


@pytest.mark.integration
def test_predict_prints_time_cost_nearest_runs_and_warns_beyond_the_range(capsys, law_store, tmp_path):  # noqa: F811
    code, out = run(capsys, law_store, tmp_path, "predict", "--workload", "terasort",
                    "--param", "rows=16000000", "--engine", "vivace", "--cluster", SMALL,
                    "--set", "vivace.slots=2")
    assert code == 0
    seconds = float(re.search(r"predicted time: ([\d.]+) s \(90% interval", out).group(1))
    assert 160 / 3 < seconds < 160 * 3
    assert re.search(r"predicted cost: [\d.e-]+ \(90% interval [\d.e-]+-[\d.e-]+\) at 1 per hour", out)
    assert "nearest measured runs: run " in out
    assert ("warning: outside the range the models learned from: rows=16000000 is above the "
            "largest value measured (1600000)") in out
    code, out = run(capsys, law_store, tmp_path, "predict", "--workload", "terasort", "--param", "rows")
    assert code == EXIT_BAD_INPUT and "error: --param rows: expected NAME=VALUE" in out


def test_recommend_writes_the_next_run_and_refuses_the_impossible(capsys, law_store, tmp_path, hadoop_keys):  # noqa: F811
    code, out = run(capsys, law_store, tmp_path, "recommend", "--workload", "terasort",
                    "--param", "rows=400000", "--deadline", "3")
    assert code == 0
    assert "terasort within 3 s: 10 of 24 configurations predicted to make it" in out
    assert re.search(rf"│ 1 │ engine=vivace cluster={SMALL} \S+ vivace.slots=4 │", out)
    [spec] = (tmp_path / "studies").glob("next-terasort-*.yaml")
    assert f"written to {spec}: ./vivace lab run {spec}" in out
    assert parse_spec(spec.read_text(), str(spec), hadoop_keys).repeats == 1
    code, out = run(capsys, law_store, tmp_path, "recommend", "--workload", "terasort",
                    "--param", "rows=400000", "--deadline", "0.3")
    assert code == EXIT_BAD_INPUT
    assert out.startswith("error: no configuration of terasort rows=400000 is predicted to finish "
                          "within 0.3 s")


def test_other_lab_commands_do_not_import_the_modelling_libraries():
    """scikit-learn and SciPy take seconds to import (tens on a busy machine): only the model commands pay."""
    import subprocess
    import sys
    probe = ("import sys, vivace_lab.cli as cli; cli._parser(); "
             "print(sorted(m for m in ('sklearn', 'scipy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
