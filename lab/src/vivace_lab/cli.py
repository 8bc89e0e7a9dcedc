"""`vivace lab`: run studies, list and export runs, write reports."""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
from pathlib import Path

from rich.console import Console

from vivace_lab import machine, paths, processes

EXIT_FAILED_RUNS = 1
EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    console = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 200)
    _stop_children_on_signals()
    try:
        return args.handler(args, console)
    except _BadInput as e:
        console.print(f"[red]error:[/red] {e}", highlight=False)
        return EXIT_BAD_INPUT
    finally:
        processes.terminate_all()


class _BadInput(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vivace lab", description=__doc__)
    parser.add_argument("--db", default=None,
                        help="database URL or SQLite file (default: $VIVACE_LAB_DB or <lab home>/lab.db)")
    parser.add_argument("--home", default=None,
                        help="folder for generated data, run folders and reports (default: $VIVACE_LAB_HOME or lab/work)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser("run", help="run a study (default: the bundled headline study)")
    run.add_argument("spec", nargs="?", default="headline", help="a study spec file or a bundled study name")
    run.add_argument("--restart", action="store_true", help="forget this study's earlier runs and start over")
    run.add_argument("--heap", default="2g", help="heap of JVMs that run tasks in-process (default 2g)")
    run.add_argument("--report", default=None, help="HTML report path (default: <lab home>/reports/<study>.html)")
    run.set_defaults(handler=_run)

    swim = commands.add_parser("swim", help="replay a SWIM trace (default: FB-2010's first 20 jobs) on each engine")
    from vivace_lab.swim_study import add_arguments as add_swim_arguments
    add_swim_arguments(swim)
    swim.set_defaults(handler=_swim)

    from vivace_lab.timing import command as bench_command
    from vivace_lab.timing.command import add_arguments as add_bench_arguments
    bench = commands.add_parser("bench", help="time two engines side by side, alternating (bench/run is its front)",
                                description=bench_command.__doc__.split("\n\n")[0])
    add_bench_arguments(bench)
    bench.set_defaults(handler=_bench)

    check = commands.add_parser("check", help="check a study spec without running it")
    check.add_argument("spec")
    check.set_defaults(handler=_check)

    runs = commands.add_parser("runs", help="list stored runs")
    _add_filters(runs)
    runs.set_defaults(handler=_runs)

    export = commands.add_parser("export", help="write stored runs as CSV, JSON or HiBench report lines")
    export.add_argument("--format", choices=("csv", "json", "hibench"), default="csv")
    export.add_argument("--out", default="-", help="file to write (default: standard output)")
    _add_filters(export)
    export.set_defaults(handler=_export)

    report = commands.add_parser("report", help="write a study's static HTML report")
    report.add_argument("study")
    report.add_argument("--out", default=None)
    report.set_defaults(handler=_report)

    price = commands.add_parser("price", help="set the hourly price of a hardware/cluster description")
    price.add_argument("cluster")
    price.add_argument("hourly_price", type=float)
    price.set_defaults(handler=_price)

    clusters = commands.add_parser("clusters", help="list hardware/cluster descriptions and prices")
    clusters.set_defaults(handler=_clusters)

    serve = commands.add_parser("serve", help="the web app: browse, compare and explain the stored runs")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080)")
    serve.set_defaults(handler=_serve)

    from vivace_lab.model_commands import add_parsers as add_model_parsers
    add_model_parsers(commands, _with_store)
    return parser


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--study", default=None)
    parser.add_argument("--workload", default=None)
    parser.add_argument("--engine", default=None)
    parser.add_argument("--status", default=None, choices=("succeeded", "failed"))


def _stop_children_on_signals() -> None:
    def stop(signum, _frame):
        processes.terminate_all()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)


# ---- settings ----------------------------------------------------------------------------------

def _lab_home(args) -> Path:
    if args.home:
        os.environ["VIVACE_LAB_HOME"] = str(Path(args.home).resolve())
    home = paths.lab_home()
    home.mkdir(parents=True, exist_ok=True)
    return home


def _open_store(args):
    from vivace_lab.store import Store

    _lab_home(args)
    url = args.db or paths.default_database_url()
    if "://" not in url:
        url = f"sqlite:///{Path(url).resolve()}"
    return Store(url)


def _load_spec(spec_arg: str, console: Console):
    from vivace_lab.plan.hadoop_keys import HadoopKeys, classpath_jars
    from vivace_lab.plan.spec import parse_spec
    from vivace_lab.plan.yaml_source import SpecError

    path = Path(spec_arg)
    if not path.is_file():
        bundled = paths.bundled_study(spec_arg)
        if bundled is None:
            raise _BadInput(f"no study spec file '{spec_arg}' and no bundled study of that name")
        path = bundled
    with console.status("checking the Java side is built (first use builds it)"):
        keys = HadoopKeys.from_jars(classpath_jars(paths.vivace_home(), paths.launcher()))
    try:
        return parse_spec(path.read_text(), str(path), keys)
    except SpecError as e:
        raise _BadInput(str(e)) from None


# ---- commands ------------------------------------------------------------------------------------

def _run(args, console: Console) -> int:
    from vivace_lab.engines import RunSettings
    from vivace_lab.plan.queue import plan_queue
    from vivace_lab.progress import ConsoleProgress
    from vivace_lab.runner import StudyRunner
    from vivace_lab.study_summary import print_summary, write_study_report

    spec = _load_spec(args.spec, console)
    lustre_root = _lustre_root(spec)
    home = _lab_home(args)
    store = _open_store(args)
    try:
        cluster_name, description = machine.describe()
        store.ensure_cluster(cluster_name, description)
        if args.restart:
            store.restart_study(spec.name)
        settings = RunSettings(lab_home=home, cluster=cluster_name, heap=args.heap, machine=description,
                               lustre_root=lustre_root)
        total = len(plan_queue(spec))
        console.print(f"study [bold]{spec.name}[/bold]: {total} runs on "
                      f"{', '.join(spec.engines)}; database {store.url}")
        with ConsoleProgress(console, total) as progress:
            settings = dataclasses.replace(settings, on_progress=progress.detail)
            outcome = StudyRunner(spec, store, settings, progress).run()
        if outcome.already_done:
            console.print(f"resumed: {outcome.already_done} runs were already stored")
        if outcome.cluster and outcome.cluster.get("start_s") is not None:
            console.print(f"{'cluster' if spec.cluster.real else 'mini-cluster'} {outcome.cluster['name']} ({spec.cluster.summary()}): started in "
                          f"{outcome.cluster['start_s']:.1f} s, counted in no run", highlight=False)
        disagreements = print_summary(console, store, outcome.study_id, list(spec.engines))
        report = Path(args.report) if args.report else home / "reports" / f"{spec.name}.html"
        write_study_report(store, outcome.study_id, spec.name, report)
        console.print(f"report: {report}")
        failed = len(store.runs(study_id=outcome.study_id, status="failed"))
        if outcome.cluster_stop_failure:
            console.print(f"[red]{outcome.cluster_stop_failure}[/red]", highlight=False)
        if failed or disagreements or outcome.cluster_stop_failure:
            console.print(f"[red]{failed} failed run(s), {disagreements} output disagreement(s)[/red]")
            return EXIT_FAILED_RUNS
        return 0
    finally:
        store.close()


def _lustre_root(spec) -> Path | None:
    """The study's lustre_root, created before the first run; a clear error when it cannot be."""
    from vivace_lab.engines import EngineUnavailable
    from vivace_lab.engines.driver import prepare_lustre_root

    if spec.lustre_root is None:
        return None
    try:
        prepare_lustre_root(Path(spec.lustre_root))
    except EngineUnavailable as e:
        raise _BadInput(f"study {spec.name}: {e}") from None
    return Path(spec.lustre_root)


def _swim(args, console: Console) -> int:
    from vivace_lab.swim_study import SwimOptionError, write_spec

    try:
        args.spec = str(write_spec(args, _lab_home(args) / "studies"))
    except SwimOptionError as e:
        raise _BadInput(str(e)) from None
    return _run(args, console)


def _bench(args, console: Console) -> int:
    from vivace_lab.timing.command import run

    return run(args, store_url=args.db)


def _check(args, console: Console) -> int:
    from vivace_lab.plan.queue import plan_queue

    spec = _load_spec(args.spec, console)
    console.print(f"{args.spec}: study '{spec.name}', {len(plan_queue(spec))} runs "
                  f"({len(spec.workload_points)} workload points x {len(spec.grid_points)} grid points "
                  f"x engines x {spec.repeats} repeats"
                  f"{f' x {len(spec.cluster.links)} link rates' if len(spec.cluster.links) > 1 else ''})")
    return 0


def _runs(args, console: Console) -> int:
    from vivace_lab.study_summary import print_runs

    store = _open_store(args)
    try:
        print_runs(console, store, **_filters(store, args))
        return 0
    finally:
        store.close()


def _export(args, console: Console) -> int:
    from vivace_lab.store.export import export_runs, hibench_report

    store = _open_store(args)
    try:
        out = sys.stdout if args.out == "-" else open(args.out, "w", newline="")
        try:
            if args.format == "hibench":
                hibench_report(store, out, **_filters(store, args))
            else:
                export_runs(store, args.format, out, **_filters(store, args))
        finally:
            if out is not sys.stdout:
                out.close()
        return 0
    finally:
        store.close()


def _report(args, console: Console) -> int:
    from vivace_lab.plan.spec import study_name_problem
    from vivace_lab.study_summary import write_study_report

    home = _lab_home(args)
    store = _open_store(args)
    try:
        study = _study_id(store, args.study)
        if not args.out and study_name_problem(args.study):
            raise _BadInput(f"{study_name_problem(args.study)}; give the report's path with --out")
        out = Path(args.out) if args.out else home / "reports" / f"{args.study}.html"
        write_study_report(store, study, args.study, out)
        console.print(f"report: {out}")
        return 0
    finally:
        store.close()


def _price(args, console: Console) -> int:
    store = _open_store(args)
    try:
        try:
            store.set_cluster_price(args.cluster, args.hourly_price)
        except KeyError as e:
            raise _BadInput(str(e).strip("'\"")) from None
        console.print(f"{args.cluster}: {args.hourly_price} per hour")
        return 0
    finally:
        store.close()


def _clusters(args, console: Console) -> int:
    store = _open_store(args)
    try:
        for cluster in store.clusters():
            console.print(f"{cluster.name}\t{cluster.hourly_price}\t{cluster.description}")
        return 0
    finally:
        store.close()


def _serve(args, console: Console) -> int:
    import uvicorn

    from vivace_lab.web import create_app

    if not 0 < args.port < 65536:
        raise _BadInput(f"--port {args.port}: a port is 1 to 65535")
    store = _open_store(args)
    try:
        console.print(f"Vivace lab web app: http://{args.host}:{args.port}/ (database {store.url}); "
                      "Ctrl-C stops it", highlight=False)
        server = uvicorn.Server(uvicorn.Config(create_app(store), host=args.host, port=args.port,
                                               log_level="warning"))
        server.run()
        # uvicorn reports a port it cannot bind in its log and returns without serving
        return 0 if server.started else EXIT_BAD_INPUT
    finally:
        store.close()


def _with_store(handler):
    """A command handler ``handler(args, console, store)`` with the store opened and closed for it."""
    from vivace_lab.model_commands import CommandError

    def run(args, console: Console) -> int:
        store = _open_store(args)
        try:
            return handler(args, console, store)
        except CommandError as e:
            raise _BadInput(str(e)) from None
        finally:
            store.close()
    return run


def _filters(store, args) -> dict:
    filters = {"workload": args.workload, "engine": args.engine, "status": args.status}
    if args.study:
        filters["study_id"] = _study_id(store, args.study)
    return {k: v for k, v in filters.items() if v is not None}


def _study_id(store, name: str) -> int:
    for study in store.studies():
        if study.name == name:
            return study.id
    known = ", ".join(s.name for s in store.studies()) or "none yet: `vivace lab run` makes one"
    raise _BadInput(f"no study named '{name}' in the database (studies: {known})")
