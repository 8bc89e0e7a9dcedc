"""`vivace lab bench` (and `bench/run`, which runs it): this checkout's Vivace against Apache's
LocalJobRunner, against another revision of Vivace (``--baseline REF``), or, on a YARN + HDFS
mini-cluster (``--cluster N``), a warm Vivace session against MapReduce on YARN; run after run,
alternating, on identical input; a table of each engine's median and their ratio.

The machines are shared and noisy: compare the ratio, which is measured in the same run.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from vivace_lab import machine, paths
from vivace_lab.engines import Engine, EngineUnavailable, RunSettings, create_engine
from vivace_lab.engines.driver import DriverEngine, run_process
from vivace_lab.engines.logs import log_tail
from vivace_lab.engines.session import SessionSize
from vivace_lab.engines.vivace_yarn_engine import VivaceYarnEngine
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.queue import plan_queue
from vivace_lab.record import SUCCEEDED, RunResult
from vivace_lab.report.ratios import TimedRun, format_shuffle_bytes, format_table, ratio_rows
from vivace_lab.runner import StudyRunner
from vivace_lab.timing import plan
from vivace_lab.timing.baseline import BaselineBuild, BaselineError, git_describe
from vivace_lab.timing.executor_loss import LOSS, describe_loss, loss_summary, run_with_executor_loss
from vivace_lab.timing.programs import PROGRAMS, WORKLOADS_JAR, program_env, run_program, warm_up_command
from vivace_lab.workloads.catalogue import WORKLOADS

EMBEDDED_ENGINES = ("vivace", "hadoop-local")
ON_CLUSTER_ENGINES = ("vivace-yarn", "hadoop-yarn")
# Engines that start a JVM per task: no untimed warm-up job (one takes ~25 s; their launcher's
# class data archive is made by the other engine's warm-up).
NO_WARM_UP = ("hadoop-yarn", "hadoop-tez")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scale", choices=plan.SCALES, default="default",
                        help="input sizes (default: %(default)s; tiny is a smoke test)")
    parser.add_argument("--workloads", default=None,
                        help="comma-separated: workloads of the driver's catalogue that bench runs"
                             f" ({','.join(plan.CATALOGUE_RUNS)}) and its own {','.join(PROGRAMS)};"
                             f" `--list` says what each is (default: {plan.DEFAULT_WORKLOADS})")
    parser.add_argument("--list", action="store_true",
                        help="list the driver's workloads (which bench runs) and bench's own, and exit")
    parser.add_argument("--codecs", default="none",
                        help="map output compression for terasort, wordcount and sort: comma-separated"
                             f" subset of {','.join(plan.CODECS)}, each a run of its own on both engines"
                             " (default: %(default)s, uncompressed)")
    parser.add_argument("--size", action="append", default=[], metavar="WORKLOAD=SIZE",
                        help="input size of one workload instead of the scale's, e.g. wordcount=1g"
                             f" (workloads: {', '.join(plan.SIZED)}; sizes in bytes or with k, m, g; sleep's in"
                             " maps); repeatable")
    parser.add_argument("--repeats", type=int, default=3, help="runs per engine (median reported)")
    parser.add_argument("--heap", default="2g", help="maximum heap of every run, both engines")
    parser.add_argument("--work-dir", default=None,
                        help="the lab home of these runs: inputs, run folders, reports and, unless --db"
                             " says otherwise, the store lab.db (default: bench/work)")
    parser.add_argument("--baseline", metavar="REF",
                        help="compare with Vivace at git revision REF of this repository (a commit,"
                             " branch or tag) instead of Apache's LocalJobRunner: REF is checked out"
                             " in a git worktree under the work directory, built there and run by its"
                             " own launcher, as the engine vivace@<commit>")
    parser.add_argument("--keep", action="store_true",
                        help="keep each run's folder, and the --baseline worktree (reused by the next"
                             " run with the same REF)")
    parser.add_argument("--cluster", type=int, metavar="N",
                        help="on a YARN + HDFS mini-cluster of N NodeManagers and N DataNodes: a warm"
                             " Vivace session (vivace-yarn) against MapReduce on YARN (hadoop-yarn);"
                             f" workloads {','.join(plan.CLUSTER_WORKLOADS)}, smaller sizes")
    parser.set_defaults(bench_parser=parser)


def check_workloads(chosen: list[str], catalogue, cluster: bool) -> str | None:
    """None when the timing mode can run every chosen workload; else what is wrong with the first."""
    if cluster:
        unknown = [name for name in chosen if name not in plan.CLUSTER_WORKLOADS]
        if unknown:
            return f"--cluster runs {','.join(plan.CLUSTER_WORKLOADS)}; not {','.join(unknown)}"
        if LOSS in chosen and "terasort" not in chosen:
            return f"--workloads {LOSS} needs terasort too: the loss is timed against it"
        return None
    stale = [name for name in plan.CATALOGUE_RUNS if name not in catalogue]
    if stale:
        return (f"bench runs {', '.join(stale)}, which the driver's catalogue does not list"
                f" (`./vivace driver --list-workloads`): update CATALOGUE_RUNS in {plan.__file__}")
    runnable = [*plan.CATALOGUE_RUNS, *PROGRAMS]
    for name in chosen:
        if name in runnable:
            continue
        if name in catalogue:
            return (f"--workloads {name}: a workload of the driver's catalogue that bench does not run;"
                    f" `./vivace lab run` runs every one (a study listing it under workloads:)")
        close = difflib.get_close_matches(name, [*runnable, *catalogue], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"--workloads {name}: unknown workload{hint}; bench runs {','.join(runnable)}"
    return None


def print_workload_list(catalogue) -> None:
    for name, workload in catalogue.items():
        runs = "runs" if name in plan.CATALOGUE_RUNS else "lab only"
        print(f"{name:18} {runs:9} {workload.description}")
    for name, program in PROGRAMS.items():
        print(f"{name:18} {'bench':9} {program.description}")
    print("runs: bench runs it with its own sizes (--scale); lab only: `./vivace lab run` runs it;"
          " bench: bench's own measurement (a whole program), not a driver workload.")


def check_options(args: argparse.Namespace, catalogue) -> str | None:
    """Fills in the defaults; None when the options can run, else why not."""
    cluster = args.cluster is not None
    args.workloads = args.workloads or (",".join(plan.CLUSTER_WORKLOADS) if cluster else plan.DEFAULT_WORKLOADS)
    problem = check_workloads(args.workloads.split(","), catalogue, cluster)
    if cluster and args.cluster < 1:
        return f"--cluster {args.cluster}: at least one NodeManager"
    if cluster and (args.baseline or args.codecs != "none"):
        return "--cluster runs without --baseline and --codecs"
    if problem:
        return problem
    try:
        args.size = plan.parse_sizes(args.size)
    except ValueError as e:
        return str(e)
    unknown = [c for c in args.codecs.split(",") if c not in plan.CODECS]
    if unknown:
        return f"unknown codec(s) {','.join(unknown)}; choose from {','.join(plan.CODECS)}"
    if args.repeats < 1:
        return "--repeats must be at least 1"
    if args.baseline and os.environ.get("VIVACE_CLASSPATH"):
        return "--baseline: unset VIVACE_CLASSPATH; each build runs with its own class path"
    return None


class TimedEngine(Engine):
    """A lab engine as the timing mode runs it: the driver's workloads as the engine runs them, the
    timing programs (latency, cold-start) through its launcher and options, and executor-loss; an
    untimed empty job first, so that no timed run makes the launcher's class data archive; each
    run's folder removed after it unless ``keep``."""

    def __init__(self, inner: DriverEngine, keep: bool, work: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.keep = keep
        self.work = work

    def open(self) -> None:
        self.inner.open()
        if self.name in NO_WARM_UP or not isinstance(self.inner, DriverEngine):
            return
        log = self.work / f"first-job-{self.name}.log"
        settings = RunSettings(lab_home=self.work, cluster="")
        finished = run_process(warm_up_command(self.inner), log, self.work, program_env(self.inner, settings), [], None)
        if finished.exit_code != 0:
            raise EngineUnavailable(f"its first (untimed) empty job failed: {log_tail(log)}")

    def close(self) -> None:
        self.inner.close()

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        try:
            if planned.workload in PROGRAMS:
                return run_program(self.inner, PROGRAMS[planned.workload], planned, run_dir, settings)
            if planned.workload == LOSS:
                return run_with_executor_loss(self.inner, planned, run_dir, settings)
            return self.inner.run(planned, run_dir, settings)
        finally:
            if not self.keep:
                shutil.rmtree(run_dir, ignore_errors=True)


class RunLines:
    """The study runner's progress as bench prints it: a line per run on stderr."""

    def starting(self, planned: PlannedRun, done: int, total: int) -> None:
        pass

    def status(self, message: str) -> None:
        say(message)

    def finished(self, planned: PlannedRun, result: RunResult) -> None:
        process = (result.record or {}).get("process") or {}
        seconds = f"{result.duration_s:8.2f} s" if result.duration_s is not None else f"{'-':>8}  "
        rss = process.get("peak_rss_mb")
        say(f"  {plan.table_label(planned.workload, planned.overrides):14} {planned.engine:14} #{planned.repeat}:"
            f" {seconds}  {rss or 0:8.0f} MB  {process.get('cpu_s', 0):7.2f} CPU s"
            + ("" if result.status == SUCCEEDED else f"  FAILED: {result.failure}"))


def engines_for(args: argparse.Namespace, baseline: BaselineBuild | None) -> tuple[str, str]:
    if args.cluster is not None:
        return ON_CLUSTER_ENGINES
    return ("vivace", baseline.engine_name) if baseline else EMBEDDED_ENGINES


def run(args: argparse.Namespace, store_url: str | None = None, engine_factory=None, catalogue=None,
        lab_reports: bool = True) -> int:
    """The whole command: options checked, the study run, the table printed; the exit status
    (1 when a run failed). ``engine_factory`` (name, lab home, shared cluster) -> lab engine and
    ``catalogue`` (name -> workload) stand in for the lab's engines and the driver's catalogue, and
    ``lab_reports`` False leaves out the study's HTML report and the check of outputs across
    engines (which read the driver's catalogue), in tests."""
    parser = args.bench_parser
    catalogue = WORKLOADS if catalogue is None else catalogue
    if args.list:
        print_workload_list(catalogue)
        return 0
    problem = check_options(args, catalogue)
    if problem:
        parser.error(problem)
    work = Path(args.work_dir).resolve() if args.work_dir else paths.vivace_home() / "bench" / "work"
    work.mkdir(parents=True, exist_ok=True)
    baseline = None
    if args.baseline:
        try:
            baseline = BaselineBuild(args.baseline, work)
        except ValueError as e:
            parser.error(str(e))
    if engine_factory is None:
        check_build()
    from vivace_lab.store import Store

    store = Store(store_url or f"sqlite:///{work / 'lab.db'}")
    try:
        return run_study(args, store, work, baseline, engine_factory, lab_reports)
    except BaselineError as e:
        say(str(e))
        return 1
    finally:
        store.close()
        if baseline is not None and not args.keep:
            baseline.remove(say)


def run_study(args: argparse.Namespace, store, work: Path, baseline: BaselineBuild | None, engine_factory,
              lab_reports: bool) -> int:
    load_at_start = os.getloadavg()
    if baseline is not None:
        baseline.prepare(say)
    engines = engines_for(args, baseline)
    name = f"bench-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}"
    spec = plan.timing_spec(name, args.workloads.split(","), engines, args.scale, args.size,
                            args.codecs.split(","), args.repeats, args.cluster)
    cluster_name, description = machine.describe()
    store.ensure_cluster(cluster_name, description)
    settings = RunSettings(lab_home=work, cluster=cluster_name, heap=args.heap, machine=description)

    def factory(engine: str, lab_home: Path, cluster):
        if baseline is not None and engine == baseline.engine_name:
            inner = baseline.engine()
        elif engine == "vivace-yarn" and engine_factory is None:
            inner = VivaceYarnEngine(cluster, home=lab_home / "minicluster", session_size=SessionSize.fixed(spec.cluster))
        else:
            inner = (engine_factory or create_engine)(engine, lab_home, cluster)
        return TimedEngine(inner, args.keep, work)

    say(f"study {name}: {len(plan_queue(spec))} runs on {', '.join(engines)}, alternating; store {store.url}")
    outcome = StudyRunner(spec, store, settings, RunLines(), factory).run()
    return report(store, outcome, spec, engines, baseline, load_at_start, work, lab_reports)


def check_build() -> None:
    """The build current (the launcher builds it when not) and the workloads jar there."""
    listed = subprocess.run([str(paths.launcher()), "classpath"], stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    jar = paths.vivace_home() / WORKLOADS_JAR
    if listed.returncode != 0 or not jar.exists():
        raise SystemExit(f"{jar} missing: build with `mvn -DskipTests package`")


def timed_runs(store, study_id: int, spec) -> list[TimedRun]:
    """The study's stored runs as the table reads them."""
    latency_sizes = {}
    for point in spec.workload_points:
        if point.workload == "latency":
            latency_sizes.setdefault("runs", []).append(point.params["runs"])
            latency_sizes.setdefault("maps", []).append(point.params["maps"])
    runs = []
    for info in store.runs(study_id=study_id):
        record = store.run(info.id).record
        if info.workload == "latency" and latency_sizes:
            size = "/".join(dict.fromkeys(latency_sizes["runs"])) + " jobs, " + \
                "/".join(dict.fromkeys(latency_sizes["maps"])) + " maps"
        else:
            size = plan.size_label(info.workload, info.params)
        runs.append(TimedRun(plan.table_label(info.workload, info.overrides), size, info.engine,
                             info.status == SUCCEEDED, info.duration_s,
                             ((record or {}).get("process") or {}).get("peak_rss_mb"), record))
    return sorted(runs, key=lambda r: [p.workload for p in spec.workload_points].index(r.label.split("+")[0]))


def report(store, outcome, spec, engines, baseline, load_at_start, work: Path, lab_reports: bool) -> int:
    """Prints the table and what goes with it; the exit status: 1 when a run failed or two engines
    wrote different outputs from the same input."""
    from vivace_lab.study_summary import output_disagreements, write_study_report

    runs = timed_runs(store, outcome.study_id, spec)
    table_runs = [r for r in runs if r.label != LOSS]
    faster = "this checkout's build" if baseline is not None else "Vivace"
    print(format_table(ratio_rows(table_runs, engines), engines, faster))
    loss_runs = [r for r in runs if r.label == LOSS]
    if loss_runs:
        as_dicts = lambda selected: [{"ok": r.ok, "duration_s": r.duration_s, "record": r.record} for r in selected]
        undisturbed = [r for r in runs if r.label == "terasort" and r.engine == engines[0]]
        print("\n" + describe_loss(loss_summary(as_dicts(undisturbed), as_dicts(loss_runs)), loss_runs[0].size))
    shuffle = format_shuffle_bytes(runs, engines)
    if shuffle:
        print("\n" + shuffle)
    if outcome.cluster and outcome.cluster.get("start_s") is not None:
        print(f"\nmini-cluster {outcome.cluster['name']} ({spec.cluster.summary()}): started in"
              f" {outcome.cluster['start_s']:.1f} s, in no run's time")
    commits = {"vivace": git_describe(paths.vivace_home())}
    if baseline is not None:
        commits[baseline.engine_name] = git_describe(baseline.checkout) or baseline.commit
    print(f"\ncommits: {', '.join(f'{e} {c}' for e, c in commits.items() if c) or 'not a git checkout'}")
    start, end = load_at_start[0], os.getloadavg()[0]
    print(f"load average (1 min): {start:.2f} at the start, {end:.2f} at the end")
    print(f"results: study {spec.name} in {store.url}")
    disagreements = []
    if lab_reports:
        disagreements = output_disagreements(store, outcome.study_id)
        for disagreement in disagreements:
            print(f"outputs differ between engines: {disagreement}")
        html = work / "reports" / f"{spec.name}.html"
        write_study_report(store, outcome.study_id, spec.name, html)
        print(f"report: {html}")
    return 0 if all(r.ok for r in runs) and not disagreements else 1
