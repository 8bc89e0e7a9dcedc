"""`vivace lab models`, `predict` and `recommend`: their command lines. What they print is in
vivace_lab.models.terminal, imported only when one of them runs: scikit-learn and SciPy take seconds
to import, which every other lab command would pay (the modelling itself is in vivace_lab.models;
lab/docs/models.md)."""

from __future__ import annotations

import argparse

from rich.console import Console


class CommandError(Exception):
    """Bad input for a model command; the CLI prints the message and exits 2."""


def add_parsers(commands, with_store) -> None:
    """The three subcommands; ``with_store(handler)`` gives a CLI handler that opens the store."""
    models = commands.add_parser("models", help="accuracy of the models learned from the stored runs")
    models.add_argument("--workload", default=None, help="only this workload")
    models.set_defaults(handler=with_store(_models))

    predict_cmd = commands.add_parser("predict", help="predict a run's time and cost, with an interval")
    _request_arguments(predict_cmd)
    predict_cmd.set_defaults(handler=with_store(_predict))

    recommend_cmd = commands.add_parser(
        "recommend", help="the cheapest configuration predicted to meet a deadline, and the next run to measure")
    _request_arguments(recommend_cmd)
    recommend_cmd.add_argument("--deadline", type=float, required=True, metavar="SECONDS")
    recommend_cmd.add_argument("--budget", type=float, default=None, metavar="PRICE",
                               help="most a run may cost (in the clusters' price currency)")
    recommend_cmd.add_argument("--alternatives", type=int, default=4, help="how many runners-up (default 4)")
    recommend_cmd.add_argument("--spec-out", default=None,
                               help="where to write the next run's study spec (default: <lab home>/studies/NAME.yaml)")
    recommend_cmd.set_defaults(handler=with_store(_recommend))


def _request_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workload", required=True)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a workload parameter (repeatable): rows=1000000, bytes=1GiB ...")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                        help="a configuration key (repeatable): mapreduce.task.io.sort.mb=64 ...")
    parser.add_argument("--engine", default=None)
    parser.add_argument("--cluster", default=None)


def _models(args, console: Console, store) -> int:
    from vivace_lab.models import terminal
    return terminal.show_models(args, console, store)


def _predict(args, console: Console, store) -> int:
    from vivace_lab.models import terminal
    return terminal.show_prediction(args, console, store)


def _recommend(args, console: Console, store) -> int:
    from vivace_lab.models import terminal
    return terminal.show_recommendation(args, console, store)
