"""A rich progress bar for long sweeps: done/total, ok and failed counts, best TF/s so far, ETA."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


class SweepProgress:
    """Context manager; call `update(result)` for each finished KernelResult (or `advance(status, tflops)`).

    Disabled (prints nothing) when `disable` is set or the console is not a terminal.
    """

    def __init__(self, total: int, console: Console, disable: bool = False, description: str = "timed"):
        self.ok = self.failed = 0
        self.best_tflops = 0.0
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[stats]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            disable=disable or not console.is_terminal,
            transient=True,
        )
        self._task = self._progress.add_task(description, total=total, stats="")

    def __enter__(self) -> "SweepProgress":
        self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        self._progress.stop()

    def advance(self, status: str, tflops: float | None) -> None:
        if status == "ok":
            self.ok += 1
            self.best_tflops = max(self.best_tflops, tflops or 0.0)
        else:
            self.failed += 1
        stats = f"[green]{self.ok} ok[/green] [red]{self.failed} failed/wrong[/red] best {self.best_tflops:.1f} TF/s"
        self._progress.update(self._task, advance=1, stats=stats)

    def update(self, result) -> None:
        self.advance(result.status, result.tflops)
