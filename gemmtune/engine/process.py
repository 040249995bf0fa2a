"""Worker processes: a body object served over a multiprocessing Pipe, and the parent's handle on one.

The protocol is plain dicts, so any transport that can call a method and return a dict (a Pipe here, a Ray
actor later) can drive the same worker bodies:

    request  {"op": "<method>", **kwargs}     → reply = body.<method>(**kwargs), a dict of plain values
    request  {"op": "stop"}                   → the process exits (no reply)

A reply holding `"exit": True` (a sticky CUDA error: the process's CUDA context is unusable) is sent, then
the process exits so that its owner starts a fresh one. An exception escaping a body method is sent back as
{"failed": True, "error": "<Type>: <message>"}; the process keeps serving.

Children are started with the 'spawn' method (no inherited CUDA state), ignore SIGINT (the parent owns
Ctrl-C and stops them), and exit on their own when the parent dies (a closed pipe, or a watchdog that sees
the parent process gone), so a `kill -9` of the parent leaves no worker behind.
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

EXIT_STICKY = 3  # exit status of a worker that left after a sticky CUDA error
_SPAWN = mp.get_context("spawn")
_ENV_LOCK = threading.Lock()


def serve(conn: Connection, body_cls: type, body_kwargs: dict, parent_pid: int) -> None:
    """Child main loop: build `body_cls(**body_kwargs)`, then answer requests until 'stop' or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(parent_pid)
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
    """Exit this process when the parent is gone (reparented), even if the main thread is stuck."""

    def watch():
        while True:
            time.sleep(period_s)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


@contextmanager
def _environ(overrides: dict[str, str | None]):
    """os.environ with `overrides` applied (None removes a key) for the duration: a spawned child copies it."""
    with _ENV_LOCK:
        saved = {k: os.environ.get(k) for k in overrides}
        try:
            _set_environ(overrides)
            yield
        finally:
            _set_environ(saved)


def _set_environ(values: dict[str, str | None]) -> None:
    """Set each key of os.environ to its value; None removes the key."""
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@contextmanager
def _sigint_ignored():
    """SIGINT ignored while a child starts: an ignored signal stays ignored across exec, so a Ctrl-C at the
    terminal (sent to the whole process group) reaches only the parent, even while the child imports torch."""
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
    in the child's environment only. One request at a time: `busy` holds what was sent until its reply.
    """

    def __init__(self, name: str, body_cls: type, body_kwargs: dict | None = None, env: dict | None = None):
        self.name = name
        self.body_cls = body_cls
        self.body_kwargs = body_kwargs or {}
        self.env = env or {}
        self.process: Any = None
        self.conn: Connection | None = None
        self.busy: dict | None = None
        self.deadline = float("inf")

    def start(self) -> None:
        parent, child = _SPAWN.Pipe()
        process = _SPAWN.Process(
            target=serve, args=(child, self.body_cls, self.body_kwargs, os.getpid()), name=self.name, daemon=True
        )
        with _environ(self.env), _sigint_ignored():
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
        """Ask the process to exit; kill it if it has not within two seconds."""
        if self.process is not None and self.process.is_alive() and self.busy is None:
            try:
                self.conn.send({"op": "stop"})
            except (BrokenPipeError, OSError):
                pass
            self.process.join(timeout=2.0)
        self.kill()

    def _forget(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None
        self.busy, self.deadline = None, float("inf")
