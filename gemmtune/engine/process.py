"""Worker processes: a body object served over a multiprocessing Pipe, and the parent's handle on one.

The protocol is plain dicts, so any transport that can call a method and return a dict (a Pipe here, a Ray
actor later) can drive the same worker bodies:

    request  {"op": "<method>", **kwargs}     → reply = body.<method>(**kwargs), a dict of plain values
    request  {"op": "stop"}                   → the process exits (no reply)

A reply holding `"exit": True` (a sticky CUDA error: the process's CUDA context is unusable) is sent, then
the process exits so that its owner starts a fresh one. An exception escaping a body method is sent back as
{"failed": True, "error": "<Type>: <message>"}; the process keeps serving.

Children come from multiprocessing's 'forkserver' (where the platform has it; 'spawn' elsewhere): a fresh
server process imports the bodies' heavy modules once (each body class may list them in `preload`, e.g. torch
and triton) and forks every worker from there, so a worker starts in milliseconds instead of importing torch
itself, and sixteen compile workers do not import it sixteen times side by side. The server never touches
CUDA (its CUDA check goes through NVML), so a forked worker can still create its own CUDA context. Each child
gets the parent's environment as it was at the child's start (plus its own overrides), ignores SIGINT (the
parent owns Ctrl-C and stops them), and exits on its own when the parent dies (a closed pipe, or a watchdog
that sees it re-parented: the fork server exits with the parent), so a `kill -9` of the parent leaves no
worker behind.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any
from unittest import mock

EXIT_STICKY = 3  # exit status of a worker that left after a sticky CUDA error
_CONTEXT = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
_PRELOAD: set[str] = set()  # modules the fork server imports, from the `preload` of every body class seen
_START_LOCK = threading.Lock()
# The fork server's own environment: torch's CUDA check by NVML, so importing torch there never runs cuInit
# (a process forked after cuInit cannot use CUDA).
_SERVER_ENV = {"PYTORCH_NVML_BASED_CUDA_CHECK": "1"}


def serve(conn: Connection, body_cls: type, body_kwargs: dict, environ: dict[str, str]) -> None:
    """Child main loop: take `environ`, build `body_cls(**body_kwargs)`, answer requests until 'stop' or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(os.getppid())
    os.environ.clear()
    os.environ.update(environ)
    body = body_cls(**body_kwargs)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        op = message.pop("op", None)
        if op == "stop":
            return
        method = getattr(body, op, None) if isinstance(op, str) and not op.startswith("_") else None
        try:
            if method is None:
                raise ValueError(f"unknown op {op!r}")
            reply = method(**message)
        except Exception as exc:  # noqa: BLE001  (reported to the parent, which decides)
            reply = {"failed": True, "error": f"{type(exc).__name__}: {str(exc).strip()[:1000]}"}
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        if reply.get("exit"):
            conn.close()
            os._exit(EXIT_STICKY)


def _watch_parent(parent_pid: int, period_s: float = 1.0) -> None:
    """Exit this process when its parent (the fork server, or the owner under 'spawn') is gone, i.e. it was
    re-parented, even if the main thread is stuck."""

    def watch():
        while True:
            time.sleep(period_s)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def child_environ(overrides: dict[str, str | None]) -> dict[str, str]:
    """This process's environment with `overrides` applied (None removes a key), for a child to take."""
    environ = dict(os.environ)
    for key, value in overrides.items():
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value
    return environ


@contextmanager
def _sigint_ignored():
    """SIGINT ignored while a child (or the fork server) starts: an ignored signal stays ignored across exec
    and fork, so a Ctrl-C at the terminal (sent to the whole process group) reaches only the parent."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class WorkerProcess:
    """The parent's handle on one spawned worker: send a request, read the reply, kill, restart.

    name labels the worker in results and messages ('gpu0', 'compile3'). env: variables set (None: removed)
    in the child's environment only. body_cls.preload (optional): modules for the fork server to import.
    One request at a time: `busy` holds what was sent until its reply.
    """

    def __init__(self, name: str, body_cls: type, body_kwargs: dict | None = None, env: dict | None = None):
        _PRELOAD.update(getattr(body_cls, "preload", ()))
        self.name = name
        self.body_cls = body_cls
        self.body_kwargs = body_kwargs or {}
        self.env = env or {}
        self.process: Any = None
        self.conn: Connection | None = None
        self.busy: dict | None = None
        self.deadline = float("inf")
        self._exiting: list = []  # processes asked to stop, not yet joined

    def start(self) -> None:
        parent, child = _CONTEXT.Pipe()
        process = _CONTEXT.Process(
            target=serve, args=(child, self.body_cls, self.body_kwargs, child_environ(self.env)), name=self.name,
            daemon=True,
        )
        # _SERVER_ENV is applied while a start may launch the fork server, which copies os.environ.
        with _START_LOCK, mock.patch.dict(os.environ, _SERVER_ENV), _sigint_ignored():
            if _CONTEXT.get_start_method() == "forkserver":
                _CONTEXT.set_forkserver_preload(sorted(_PRELOAD))  # takes effect when the server starts
            process.start()
        child.close()
        self.process, self.conn = process, parent
        self.busy, self.deadline = None, float("inf")


    def send(self, message: dict, timeout_s: float, tag: Any = None) -> None:
        """Send one request; its reply is due within `timeout_s` seconds. `tag` rides along in `busy`."""
        if self.process is None:
            self.start()
        self.busy = {"message": message, "tag": tag, "sent": time.monotonic()}
        self.deadline = time.monotonic() + timeout_s
        self.conn.send(message)

    def receive(self) -> dict:
        """The reply to the request in flight. Raises EOFError if the process died before replying."""
        reply = self.conn.recv()
        self.busy, self.deadline = None, float("inf")
        return reply

    def exitcode(self) -> int | None:
        if self.process is None:
            return None
        self.process.join(timeout=1.0)
        return self.process.exitcode

    def kill(self) -> None:
        """SIGKILL the process (a hung kernel ignores anything gentler) and forget it; the next send restarts."""
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(timeout=5.0)
        self._forget()

    def stop(self) -> None:
        """Ask the process to exit and forget it without waiting (a busy one is killed); `reap` collects it."""
        if self.process is not None and self.process.is_alive() and self.busy is None:
            try:
                self.conn.send({"op": "stop"})
                self._exiting.append(self.process)
                self._forget()
                return
            except (BrokenPipeError, OSError):
                pass
        self.kill()

    def reap(self, timeout_s: float = 2.0) -> None:
        """Wait up to `timeout_s` in all for the processes asked to stop; kill any still alive."""
        deadline = time.monotonic() + timeout_s
        for process in self._exiting:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(timeout=5.0)
        self._exiting.clear()

    def _forget(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None
        self.busy, self.deadline = None, float("inf")
