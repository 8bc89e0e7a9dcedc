"""What `vivace lab models`, `predict` and `recommend` print (their command lines are in
vivace_lab.model_commands)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from vivace_lab import paths
from vivace_lab.model_commands import CommandError
from vivace_lab.models import ModelBook, NotEnoughRuns, Request, RequestError, predict, recommend
from vivace_lab.models.evaluation import CV, EXTRAPOLATION, SCHEMES, SHORT, UNSEEN
from vivace_lab.models.families import FAMILIES
from vivace_lab.models.training import WorkloadModel


def _pairs(values: list[str], option: str) -> dict[str, str]:
    out = {}
    for text in values:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"{option} {text}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def _request(args) -> Request:
    return Request(args.workload, _pairs(args.param, "--param"), _pairs(args.sets, "--set"),
                   args.engine, args.cluster)


def _model(book: ModelBook, workload: str) -> WorkloadModel:
    try:
        return book.model(workload)
    except (RequestError, NotEnoughRuns) as e:
        raise CommandError(str(e)) from None


# ---- models --------------------------------------------------------------------------------------

def show_models(args, console: Console, store) -> int:
    book = ModelBook(store)
    lines = book.overview(args.workload)
    if not lines:
        if args.workload:
            raise CommandError(f"no successful runs of workload '{args.workload}'")
        console.print("No successful runs yet: `./vivace lab run aloja-sweep` makes training data "
                      "(about 30 minutes).")
        return 0
    for line in lines:
        if line.model is None:
            console.print(f"[bold]{line.workload}[/bold]: {line.reason}", highlight=False)
            continue
        print_accuracy(console, line.model)
    console.print("Cost is not modelled apart: it is the predicted time x the cluster's hourly price, "
                  "so its relative errors are the time's.", highlight=False)
    return 0


def print_accuracy(console: Console, model: WorkloadModel) -> None:
    configurations = len(set(model.training.configuration_ids()))
    console.print(f"[bold]{model.workload}[/bold]: {model.runs} runs, {configurations} "
                  f"configurations; chosen: [bold]{model.chosen}[/bold], the lowest MAPE "
                  f"{'on unseen configurations' if model.chosen_by == UNSEEN else 'cross-validated'}"
                  f"; 90% interval ×/÷ {_factor(model.half_width[CV])} "
                  f"for a measured configuration, ×/÷ {_factor(model.half_width[UNSEEN])} for an "
                  "unseen one", highlight=False)
    table = Table(title_justify="left", show_lines=False)
    table.add_column("model")
    for scheme in (CV, UNSEEN, EXTRAPOLATION):
        for measure in ("MAE s", "MAPE", "R²"):
            table.add_column(f"{SHORT[scheme]} {measure}", justify="right")
    table.add_column("in 90% interval", justify="right")
    for name, result in model.results.items():
        cells = [name + (" *" if name == model.chosen else "")]
        for scheme in (CV, UNSEEN, EXTRAPOLATION):
            validation = result.validations.get(scheme)
            cells += _error_cells(validation.errors if validation else None)
        extrapolation = result.validations.get(EXTRAPOLATION)
        within = extrapolation.errors.within if extrapolation else None
        cells.append("-" if within is None else f"{within:.0%}")
        table.add_row(*cells)
    console.print(table)
    for scheme, why in model.missing.items():
        console.print(f"  no {SHORT[scheme]} test ({SCHEMES[scheme]}): {why}", highlight=False)
    console.print("  " + "; ".join(f"{name}: {family.description}" for name, family in FAMILIES.items()),
                  style="dim", highlight=False)


def _error_cells(errors) -> list[str]:
    if errors is None:
        return ["-", "-", "-"]
    return [f"{errors.mae_s:.3g}", f"{errors.mape:.1%}", "-" if errors.r2 is None else f"{errors.r2:.3f}"]


def _factor(log_width: float) -> str:
    import math
    return f"{math.exp(log_width):.2f}"


# ---- predict -------------------------------------------------------------------------------------

def show_prediction(args, console: Console, store) -> int:
    book = ModelBook(store)
    model = _model(book, args.workload)
    try:
        prediction = predict(model, _request(args), book.prices())
    except RequestError as e:
        raise CommandError(str(e)) from None
    e = prediction.estimate
    level = f"{prediction.level:.0%}"
    console.print(f"[bold]{prediction.workload}[/bold] {e.describe()}", highlight=False)
    console.print(f"predicted time: [bold]{e.time_s:.3g} s[/bold] ({level} interval "
                  f"{e.low_s:.3g}-{e.high_s:.3g} s)", highlight=False)
    if e.cost is None:
        console.print(f"predicted cost: unknown (cluster {e.settings['cluster']} has no price: "
                      f"`./vivace lab price {e.settings['cluster']} PRICE`)", highlight=False)
    else:
        console.print(f"predicted cost: [bold]{e.cost:.4g}[/bold] ({level} interval {e.cost_low:.4g}-"
                      f"{e.cost_high:.4g}) at {e.hourly_price:g} per hour", highlight=False)
    console.print(_model_line(model, e), highlight=False)
    if prediction.defaulted:
        console.print("not given, so the runs' most common value: "
                      + " ".join(f"{_short(c)}={e.settings[c]}" for c in prediction.defaulted),
                      highlight=False)
    console.print("nearest measured runs:")
    for near in prediction.nearest:
        console.print(f"  run {near.run_id}: {near.duration_s:.3g} s"
                      f" ({'differs in ' + near.differences if near.differences else 'same settings'})",
                      highlight=False)
    if prediction.extrapolating:
        console.print("[yellow]warning: outside the range the models learned from[/yellow]: "
                      + "; ".join(prediction.outside) + ". " + _extrapolation_note(model),
                      highlight=False)
    return 0


def _model_line(model: WorkloadModel, e) -> str:
    result = model.results[model.chosen]
    unseen = result.mape(UNSEEN)
    parts = [f"model: {model.chosen}, MAPE {result.mape(CV):.1%} cross-validated"]
    if unseen is not None:
        parts.append(f"{unseen:.1%} on unseen configurations")
    where = (f"{e.configuration_runs} run(s) of this engine, cluster and keys, {e.measured_runs} "
             "with exactly these settings" if e.configuration_measured else
             "engine, cluster and keys never measured together: the unseen-configuration interval")
    return ", ".join(parts) + "; " + where


def _extrapolation_note(model: WorkloadModel) -> str:
    result = model.results[model.chosen].validations.get(EXTRAPOLATION)
    if result is None:
        return f"The models could not be tested beyond their range ({model.missing.get(EXTRAPOLATION)})."
    within = result.errors.within
    return (f"Tested on the largest size learned from the smaller ones, {model.chosen} was off by "
            f"{result.errors.mape:.0%} on average"
            + (f" and its interval held for {within:.0%} of the runs." if within is not None else "."))


def _short(column: str) -> str:
    from vivace_lab.models.dataset import short_name
    return short_name(column)


# ---- recommend -----------------------------------------------------------------------------------

def show_recommendation(args, console: Console, store) -> int:
    book = ModelBook(store)
    model = _model(book, args.workload)
    if args.alternatives < 0:
        raise CommandError(f"--alternatives {args.alternatives}: 0 or more")
    try:
        answer = recommend(model, _request(args), args.deadline, book.prices(), args.budget,
                           args.alternatives)
    except RequestError as e:
        raise CommandError(str(e)) from None
    budget = f" and {answer.budget:g} a run" if answer.budget is not None else ""
    console.print(f"[bold]{answer.workload}[/bold] within {answer.deadline_s:g} s{budget}: "
                  f"{answer.feasible} of {answer.considered} configurations predicted to make it "
                  f"(searched: {', '.join(answer.searched) or 'nothing: all pinned'}; "
                  f"model {answer.family})", highlight=False)
    table = Table(title_justify="left")
    for column in ("#", "configuration", "time s", f"{answer.level:.0%} interval s", "cost",
                   "cost interval", "measured runs"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    searched = [c for c in answer.best.settings if _short(c) in answer.searched]
    for rank, e in enumerate((answer.best, *answer.alternatives), 1):
        table.add_row(str(rank), e.describe(searched), f"{e.time_s:.3g}", f"{e.low_s:.3g}-{e.high_s:.3g}",
                      f"{e.cost:.4g}", f"{e.cost_low:.4g}-{e.cost_high:.4g}", str(e.measured_runs))
    console.print(table)
    if answer.best.high_s > answer.deadline_s:
        console.print(f"[yellow]note[/yellow]: the interval of #1 reaches {answer.best.high_s:.3g} s, "
                      "past the deadline", highlight=False)
    if answer.outside:
        console.print("[yellow]warning: outside the range the models learned from[/yellow]: "
                      + "; ".join(answer.outside) + ". " + _extrapolation_note(model), highlight=False)
    if answer.unpriced:
        console.print(f"left out, no price: {', '.join(answer.unpriced)}", highlight=False)
    if answer.defaulted:
        console.print("not given, so the runs' most common value: "
                      + " ".join(f"{_short(c)}={answer.best.settings[c]}" for c in answer.defaulted),
                      highlight=False)
    home = paths.lab_home()
    out = Path(args.spec_out) if args.spec_out else home / "studies" / f"{answer.next_run.spec_name}.yaml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(answer.next_run.spec_text)
    console.print(f"\nmost informative next run: {answer.next_run.estimate.describe()}", highlight=False)
    console.print(answer.next_run.spec_text, highlight=False, markup=False)
    console.print(f"written to {out}: ./vivace lab run {out}", highlight=False)
    return 0
