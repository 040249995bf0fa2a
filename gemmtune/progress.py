"""A rich progress bar for long sweeps: compiled/timed/total, ok and failed counts, best TF/s so far, ETA."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


class SweepProgress:
    """Context manager; call `update(result)` for each finished KernelResult (or `advance(status, tflops)`).

    The engine (gemmtune.engine.run_engine) also calls begin(total, compile_total, done) once, with the
    configs already finished by an earlier run, compiled() per config through the compile stage, and
    stage(text) when the sweep enters a new stage (re-timing). The bar counts finished (timed) configs; the
    stats show compiled/total when there is a compile stage.
    Disabled (prints nothing) when `disable` is set or the console is not a terminal.
    """

    def __init__(self, total: int, console: Console, disable: bool = False, description: str = "timed"):
        self.ok = self.failed = 0
        self.best_tflops = 0.0
        self.compile_total: int | None = None
        self.n_compiled = 0
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

    def begin(self, total: int, compile_total: int | None, done=()) -> None:
        """Start over with `total` configs, `compile_total` to compile (None: no compile stage) and `done`
        results of an earlier run (counted as finished, without skewing the ETA)."""
        for result in done:
            self._count(result.status, result.tflops)
        self.compile_total, self.n_compiled = compile_total, 0
        description = next(t.description for t in self._progress.tasks if t.id == self._task)
        self._progress.remove_task(self._task)
        self._task = self._progress.add_task(description, total=total, completed=len(done), stats=self._stats())

    def compiled(self) -> None:
        self.n_compiled += 1
        self._progress.update(self._task, stats=self._stats())

    def stage(self, text: str) -> None:
        self._progress.update(self._task, description=text)

    def _count(self, status: str, tflops: float | None) -> None:
        if status == "ok":
            self.ok += 1
            self.best_tflops = max(self.best_tflops, tflops or 0.0)
        else:
            self.failed += 1

    def _stats(self) -> str:
        compiled = f"compiled {self.n_compiled}/{self.compile_total} " if self.compile_total else ""
        return (
            f"{compiled}[green]{self.ok} ok[/green] [red]{self.failed} failed/wrong[/red] "
            f"best {self.best_tflops:.1f} TF/s"
        )

    def advance(self, status: str, tflops: float | None) -> None:
        self._count(status, tflops)
        self._progress.update(self._task, advance=1, stats=self._stats())

    def update(self, result) -> None:
        self.advance(result.status, result.tflops)
