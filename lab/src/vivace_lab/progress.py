"""Progress of a study on the terminal: a bar over the queue and one line per finished run."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import SUCCEEDED, RunResult


class ConsoleProgress:
    def __init__(self, console: Console, total: int) -> None:
        self.console = console
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=console, transient=True)
        self._task = self._bar.add_task("study", total=total)
        self._current = "study"

    def __enter__(self) -> "ConsoleProgress":
        self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        self._bar.stop()

    def starting(self, planned: PlannedRun, done: int, total: int) -> None:
        self._current = f"{planned.workload} on {planned.engine} (repeat {planned.repeat + 1})"
        self._bar.update(self._task, completed=done, total=total, description=self._current)

    def detail(self, line: str) -> None:
        """The running run's latest progress line, after its label."""
        self._bar.update(self._task, description=f"{self._current}: {line}")

    def status(self, message: str) -> None:
        self._bar.update(self._task, description=message)

    def finished(self, planned: PlannedRun, result: RunResult) -> None:
        self._bar.advance(self._task)
        overrides = " ".join(f"{k}={v}" for k, v in planned.overrides.items())
        label = f"#{planned.seq} {planned.workload} {planned.engine} r{planned.repeat + 1} {overrides}".rstrip()
        if result.status == SUCCEEDED:
            self.console.print(f"[green]ok[/green]   {label}: {result.duration_s:.2f} s")
        else:
            self.console.print(f"[red]FAIL[/red] {label}: {result.failure}")
