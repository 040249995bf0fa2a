"""The engine's scheduler: compile → dispatch to GPU workers → journal → re-time → results from the journal.

One event loop in the parent drives two pools of worker processes (gemmtune.engine.process):
- compile workers (CUDA only; default one per CPU core) build each config for the target GPU
  (gemmtune.engine.compile); a config the compiler refuses, or whose compiled resources exceed the device, is
  finished there and never reaches a GPU;
- one GPU worker per GPU (one CPU worker on the interpreter) checks and screens each compiled config
  (gemmtune.engine.worker), then re-times each problem's top k once every config of it is screened and the
  compile pool is done (so no compile competes with the re-time for the CPU).
Every finished config is appended to the journal (gemmtune.engine.journal) before anything else happens, and
the final SweepResults are read back from the journal, so a killed sweep resumes where it stopped.

A config that kills its worker is `crashed`, one that does not answer within the config timeout is
`timeout`; either way the worker is killed and a fresh one takes the next config.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

from gemmtune.engine import retime as retiming
from gemmtune.engine.compile import Compiler, compile_worker_env, exceeds_device, target_of
from gemmtune.engine.journal import Journal, fingerprint, final_rows, problem_key, read_journal, result_key, retimed_problems
from gemmtune.engine.process import EXIT_STICKY, WorkerProcess
from gemmtune.engine.worker import GpuWorker
from gemmtune.pruning import shared_memory_bytes
from gemmtune.results import KernelResult, SweepResults

TIMINGS = ("do_bench", "cudagraph")


class EngineError(RuntimeError):
    """The sweep cannot go on (a problem's inputs cannot be set up on any worker); the journal is kept."""


class SweepInterrupted(Exception):
    """Ctrl-C: workers stopped, the journal keeps every finished config."""

    def __init__(self, done: int, total: int, journal: Path):
        super().__init__(f"interrupted after {done} of {total} configs")
        self.done, self.total, self.journal = done, total, journal


@dataclass
class EngineOptions:
    """How the engine runs a plan.

    gpus: GPU indices (of the visible ones) to time on, one worker each; None = all visible. On the
      interpreter each index is one CPU worker (default: one).
    workers: compile processes (None = one per CPU core). config_timeout_s: seconds one config may take to
      compile, or to check and screen on a GPU, before it is `timeout`. setup_timeout_s: seconds a worker may
      take to build a problem's inputs, references and baselines. retime_top: configs per problem re-timed
      (0 = screen only). timing: 'do_bench' or 'cudagraph' (the interpreter always times wall clock).
      resume: None = resume a journal of the same sweep if there is one, True = the same, False = start over.
    compile_stage: compile ahead in the pool (None = on CUDA only; False = each GPU worker compiles its own
      configs, as a serial loop would; True on the interpreter runs the pool's bookkeeping for tests, with
      nothing to compile).
    screen_budget / retime_budget: replace keys of the stage budgets of gemmtune.engine.retime
      (warmup_ms, rep_ms; rounds for the re-time).
    """

    gpus: list[int] | None = None
    workers: int | None = None
    config_timeout_s: float = 60.0
    setup_timeout_s: float = 900.0
    retime_top: int = 10
    timing: str = "do_bench"
    resume: bool | None = None
    compile_stage: bool | None = None
    screen_budget: dict | None = None
    retime_budget: dict | None = None


class _NullListener:
    def begin(self, total, compile_total, done):
        pass

    def compiled(self):
        pass

    def update(self, result):
        pass

    def stage(self, text):
        pass


@dataclass
class _Slot:
    """A worker process plus what the scheduler knows about it: the problem set up on it, a task held back."""

    proc: WorkerProcess
    problem: int | None = None
    pending: tuple | None = None
    setup_failures: int = 0

    @property
    def busy(self) -> bool:
        return self.proc.busy is not None


@dataclass
class _Stats:
    restarts: int = 0
    gpu_compiles: int = 0
    compile_s: float = 0.0
    devices: set = field(default_factory=set)
    baseline_timing: set = field(default_factory=set)
    notes: list = field(default_factory=list)
    timeline: dict = field(default_factory=dict)  # event → seconds since the sweep started
    busy_s: dict = field(default_factory=dict)  # request kind → seconds workers spent on it, summed


def _gpu_devices(ids: list[int] | None):
    """(indices, DeviceProperties of each) of the GPUs to time on. Raises ValueError for a bad index."""
    import torch

    from gemmtune.device import active_device

    count = torch.cuda.device_count()
    ids = list(range(count)) if ids is None else ids
    bad = [i for i in ids if not 0 <= i < count]
    if bad:
        raise ValueError(f"--gpus {','.join(map(str, ids))}: {count} GPU(s) visible (indices 0..{count - 1})")
    devices = [active_device(i) for i in ids]
    kinds = {(d.name, d.arch, d.NUM_SM) for d in devices}
    if len(kinds) > 1:
        raise ValueError(f"--gpus must name GPUs of one kind (one compile target), got {sorted(kinds)}")
    return ids, devices


def _physical(index: int) -> str:
    """The CUDA_VISIBLE_DEVICES entry of visible GPU `index`, for a child that should see only it."""
    visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    return visible[index] if index < len(visible) else str(index)


class _Engine:
    def __init__(self, plan, backend: str, journal_file: Path, options: EngineOptions, listener):
        if options.timing not in TIMINGS:
            raise ValueError(f"unknown timing {options.timing!r}: expected one of {', '.join(TIMINGS)}")
        if options.config_timeout_s <= 0:
            raise ValueError(f"--config-timeout must be positive, got {options.config_timeout_s:g}")
        self.plan, self.backend, self.options = plan, backend, options
        self.listener = listener or _NullListener()
        self.cuda = backend == "cuda"
        self.timing = options.timing if self.cuda else "interpreter"
        self.screen, self.retime_budget = retiming.stage_budgets(self.timing, options.screen_budget, options.retime_budget)
        self.stats = _Stats()
        if self.cuda:
            self.gpu_ids, devices = _gpu_devices(options.gpus)
            self.device = devices[0]
            self.target = target_of(self.device)
            device_name = self.device.name
        else:
            self.gpu_ids = options.gpus or [0]
            self.device, self.target, device_name = plan.device, target_of(plan.device), "interpreter"
        self.compile_stage = self.cuda if options.compile_stage is None else options.compile_stage
        self.problems = [p.problem for p in plan.problems]
        self.pkeys = [problem_key(p) for p in self.problems]
        self.configs = [[(result_key(p.problem, c), c) for c in p.space.kept] for p in plan.problems]
        header = {
            "fingerprint": fingerprint(plan, self.timing, device_name),
            "created_at": time.time(),
            "command": " ".join(["gemmtune", *sys.argv[1:]]),
        }
        self.journal = Journal.open(journal_file, header, options.resume)

    # ---- set-up -------------------------------------------------------------------------------------------

    def _prepare(self) -> None:
        keys = {key for configs in self.configs for key, _ in configs}
        self.rows = {k: v for k, v in final_rows(self.journal.records).items() if k in keys}
        self.retimed = retimed_problems(self.journal.records) & set(self.pkeys)
        self.resumed = len(self.rows)
        self.outstanding = [sum(key not in self.rows for key, _ in configs) for configs in self.configs]
        todo = deque((pi, key, cfg) for pi, configs in enumerate(self.configs) for key, cfg in configs if key not in self.rows)
        self.compile_queue = todo if self.compile_stage else deque()
        self.ready = deque() if self.compile_stage else deque((pi, key, cfg, None) for pi, key, cfg in todo)
        self.compile_disabled: set[int] = set()
        self.retiming: set[int] = set()
        n_compile = min(self.options.workers or os.cpu_count() or 1, len(self.compile_queue))
        env = compile_worker_env(self.target)
        self.compile_slots = [_Slot(WorkerProcess(f"compile{i}", Compiler, env=env)) for i in range(n_compile)]
        self.gpu_slots = [
            _Slot(WorkerProcess(self._gpu_name(i), GpuWorker, {"backend": self.backend}, self._gpu_env(i)))
            for i in self.gpu_ids
        ]
        done = [KernelResult.from_dict(row) for row in self.rows.values()]
        self.listener.begin(self.plan.to_run, len(self.compile_queue) if self.compile_stage else None, done)

    def _gpu_name(self, index: int) -> str:
        return f"gpu{index}" if self.cuda else f"cpu{index}"

    def _gpu_env(self, index: int) -> dict:
        if not self.cuda:
            return {}
        return {"CUDA_VISIBLE_DEVICES": _physical(index), "GEMMTUNE_NUM_SMS": str(self.target["num_sms"])}

    # ---- main loop ----------------------------------------------------------------------------------------

    def _mark(self, event: str, first: bool = True) -> None:
        """Note when `event` happened (its first time, or its last when first=False) in the timeline."""
        if not first or event not in self.stats.timeline:
            self.stats.timeline[event] = round(time.monotonic() - self.started, 3)

    def run(self) -> SweepResults:
        start = self.started = time.monotonic()
        try:
            self._prepare()
            self._prestart()
            self._loop()
        except KeyboardInterrupt:
            self._shutdown()
            self.journal.close()
            raise SweepInterrupted(len(getattr(self, "rows", {})), self.plan.to_run, self.journal.path) from None
        except BaseException:
            self._shutdown()
            self.journal.close()
            raise
        self._shutdown()
        self._mark("workers stopped")
        self.journal.close()
        return self._results(time.monotonic() - start)

    def _prestart(self) -> None:
        """Start GPU workers now, setting up the first problem with work, so that set-up overlaps compiling."""
        first = next((pi for pi, n in enumerate(self.outstanding) if n), None)
        if first is None:
            return
        for slot in self.gpu_slots:
            self._send_setup(slot, first)

    def _loop(self) -> None:
        slots = self.compile_slots + self.gpu_slots
        while True:
            self._assign()
            busy = [s for s in slots if s.busy]
            if not busy:
                if self.compile_queue or self.ready or self._retime_candidates():
                    raise EngineError("scheduler stalled with work left and no worker busy (a bug: please report)")
                return
            now = time.monotonic()
            timeout = max(0.0, min(s.proc.deadline for s in busy) - now)
            handles = [s.proc.conn for s in busy] + [s.proc.process.sentinel for s in busy]
            fired = set(wait(handles, timeout=min(timeout, 1.0)))
            for slot in busy:
                if slot.proc.conn in fired or slot.proc.process.sentinel in fired:
                    self._collect(slot)
            now = time.monotonic()
            for slot in busy:
                if slot.busy and now > slot.proc.deadline:
                    self._failed(slot, "timeout")

    # ---- assigning work -----------------------------------------------------------------------------------

    def _assign(self) -> None:
        """Give every idle worker its held-back task or the next one (setting its problem up first if needed)."""
        for slot in self.compile_slots:
            if slot.busy:
                continue
            task = slot.pending or self._next_compile()
            if task is not None:
                self._dispatch(slot, task)
            elif slot.proc.process is not None:
                slot.proc.stop()  # nothing left to compile: give the core back (reaped at the end)
        for slot in self.gpu_slots:
            if not slot.busy:
                task = slot.pending or self._next_gpu(slot)
                if task is not None:
                    self._dispatch(slot, task)

    def _next_compile(self):
        while self.compile_queue:
            pi, key, cfg = self.compile_queue.popleft()
            if pi in self.compile_disabled:
                self.ready.append((pi, key, cfg, None))
                self.listener.compiled()
                continue
            return ("compile", pi, key, cfg)
        return None

    def _compiling(self) -> bool:
        return bool(self.compile_queue) or any(s.busy or s.pending for s in self.compile_slots)

    def _next_gpu(self, slot: _Slot):
        if self.ready:
            index = next((i for i, item in enumerate(self.ready) if item[0] == slot.problem), 0)
            pi, key, cfg, report = self.ready[index]
            del self.ready[index]
            return ("run", pi, key, cfg, report)
        if self._compiling():
            return None
        candidates = self._retime_candidates()
        if not candidates:
            return None
        pi = slot.problem if slot.problem in candidates else candidates[0]
        rows = retiming.top_k([self.rows[key] for key, _ in self.configs[pi] if key in self.rows], self.options.retime_top)
        if not rows:
            self._mark_retimed(pi, 0, "")
            return self._next_gpu(slot)
        self.retiming.add(pi)
        self.listener.stage(f"re-timing top {len(rows)}")
        return ("retime", pi, rows)

    def _retime_candidates(self) -> list[int]:
        """Problems whose every config is finished and whose re-time has neither run nor started."""
        return [
            pi for pi in range(len(self.problems))
            if self.outstanding[pi] == 0 and self.pkeys[pi] not in self.retimed and pi not in self.retiming
        ]

    def _dispatch(self, slot: _Slot, task: tuple) -> None:
        """Send `task`, or hold it back and set its problem up first when the worker has another one."""
        pi = task[1]
        if slot.problem != pi:
            slot.pending = task
            self._send_setup(slot, pi)
        else:
            slot.pending = None
            self._send(slot, task)

    def _send_setup(self, slot: _Slot, pi: int) -> None:
        problem = self.problems[pi].to_dict()
        if slot.proc.body_cls is Compiler:
            message = {"op": "setup", "problem": problem, "target": self.target}
            timeout = self.options.config_timeout_s + 60
        else:
            fuse = sorted({c.fuse_mul_post for _, c in self.configs[pi]})
            message = {"op": "setup", "problem": problem, "timing": self.timing, "fuse_variants": fuse}
            timeout = self.options.setup_timeout_s
        self._transmit(slot, message, timeout, ("setup", pi))

    def _send(self, slot: _Slot, task: tuple) -> None:
        kind = task[0]
        if kind == "compile":
            message = {"op": "compile", "config": task[3].to_dict()}
            timeout = self.options.config_timeout_s
        elif kind == "run":
            message = {"op": "run", "config": task[3].to_dict(), **self.screen}
            timeout = self.options.config_timeout_s
        else:
            budget = self.retime_budget
            configs = [KernelResult.from_dict(row).kernel_config.to_dict() for row in task[2]]
            message = {"op": "retime", "configs": configs, **budget}
            per_config = budget["rounds"] * (budget["warmup_ms"] + budget["rep_ms"]) / 1e3
            # Past rep, a round times do_bench's first call, its 5-launch estimate and the sample floor.
            launches = budget["rounds"] * (6 + budget.get("min_samples", 1))
            timeout = sum(per_config + launches * (row.get("triton_time_ms") or 0.0) / 1e3
                          + self.options.config_timeout_s for row in task[2])
        self._transmit(slot, message, timeout, task)

    def _transmit(self, slot: _Slot, message: dict, timeout: float, tag: tuple) -> None:
        try:
            slot.proc.send(message, timeout, tag)
        except (BrokenPipeError, OSError):  # it died while idle: start a fresh one and send again
            self._restart(slot)
            slot.proc.send(message, timeout, tag)

    # ---- collecting replies -------------------------------------------------------------------------------

    def _collect(self, slot: _Slot) -> None:
        tag, sent = slot.proc.busy["tag"], slot.proc.busy["sent"]
        try:
            if not slot.proc.conn.poll():
                raise EOFError
            reply = slot.proc.receive()
        except (EOFError, OSError):
            self._failed(slot, "died", tag)
            return
        kind = f"{self._role(slot)} {tag[0]}"
        self.stats.busy_s[kind] = self.stats.busy_s.get(kind, 0.0) + time.monotonic() - sent
        if reply.get("exit"):
            self.stats.notes.append(f"{slot.proc.name} restarted after a sticky CUDA error")
            self._restart(slot)
        {"setup": self._on_setup, "compile": self._on_compile, "run": self._on_run, "retime": self._on_retime}[tag[0]](
            slot, tag, reply
        )

    @staticmethod
    def _role(slot: _Slot) -> str:
        return "compile" if slot.proc.body_cls is Compiler else "gpu"

    def _on_setup(self, slot: _Slot, tag: tuple, reply: dict) -> None:
        pi = tag[1]
        if reply.get("failed"):
            self._setup_failed(slot, pi, reply["error"])
            return
        self._mark(f"first {self._role(slot)} worker ready")
        self._mark(f"last {self._role(slot)} worker ready", first=False)
        slot.problem, slot.setup_failures = pi, 0
        if "setup_s" in reply:  # of the problem's inputs, references and baselines (the rest is start-up)
            self.stats.busy_s["gpu problem set-up"] = self.stats.busy_s.get("gpu problem set-up", 0.0) + reply["setup_s"]
        if "device" in reply:
            self.stats.devices.add(reply["device"])
            self.stats.baseline_timing.add(reply["baseline_timing"])

    def _setup_failed(self, slot: _Slot, pi: int, error: str, restarted: bool = False) -> None:
        problem = self.problems[pi]
        slot.problem = None
        if slot.proc.body_cls is Compiler:
            # Compiling ahead is an optimisation: without it the GPU worker compiles each config itself.
            self.compile_disabled.add(pi)
            self.stats.notes.append(f"compile stage skipped for {problem.describe()}: {error}")
            if slot.pending:
                _, _, key, cfg = slot.pending
                slot.pending = None
                self.ready.append((pi, key, cfg, None))
                self.listener.compiled()
            return
        slot.setup_failures += 1
        if slot.setup_failures >= 2:
            raise EngineError(f"{slot.proc.name} could not set up {problem.describe()}: {error}")
        if not restarted:
            self._restart(slot)  # a fresh process tries once more (the held-back task re-dispatches it)

    def _on_compile(self, slot: _Slot, tag: tuple, reply: dict) -> None:
        _, pi, key, cfg = tag
        self.listener.compiled()
        if not self._compiling():
            self._mark("compile done")
        status = reply.get("status", "passthrough")
        if status == "compiled":
            self.stats.compile_s += reply.get("compile_s") or 0.0
            over = exceeds_device(reply, cfg.num_warps, self.device)
            if over:
                self._finish(pi, key, self._result(pi, cfg, "out_of_resources", over, reply), "compile", slot.proc.name)
            else:
                self.ready.append((pi, key, cfg, reply))
        elif status in ("compile_error", "out_of_resources"):
            self._finish(pi, key, self._result(pi, cfg, status, reply.get("error", "")), "compile", slot.proc.name)
        else:  # passthrough, or the body failed: the GPU worker compiles and judges it
            self.ready.append((pi, key, cfg, None))

    def _on_run(self, slot: _Slot, tag: tuple, reply: dict) -> None:
        _, pi, key, cfg, report = tag
        if reply.get("failed"):
            result = self._result(pi, cfg, "runtime_error", reply["error"])
        else:
            result = KernelResult.from_dict(reply["row"])
            self.stats.gpu_compiles += bool(reply.get("compiled_here"))
        if report:
            result.n_regs = result.n_regs if result.n_regs is not None else report.get("n_regs")
            result.n_spills = result.n_spills if result.n_spills is not None else report.get("n_spills")
            if result.shared_mem_bytes is None:
                result.shared_mem_bytes = report.get("shared_mem_bytes")
        self._finish(pi, key, result, "run", slot.proc.name)

    def _on_retime(self, slot: _Slot, tag: tuple, reply: dict) -> None:
        _, pi, rows = tag
        self.retiming.discard(pi)
        if reply.get("failed"):
            self._mark_retimed(pi, 0, reply["error"])
            return
        errors = []
        # Baselines re-timed in the same rounds as these configs replace the ones timed at setup.
        baseline_ms = defaultdict(dict)
        for fuse, name, ms in reply.get("baseline_ms", []):
            baseline_ms[bool(fuse)][name] = ms
        for row, timing in zip(rows, reply["timings"]):
            if "error" in timing:
                errors.append(f"{row['config']}: {timing['error']}")
                continue
            result = KernelResult.from_dict(row)
            result.baseline_ms = {**result.baseline_ms, **baseline_ms[result.kernel_config.fuse_mul_post]}
            result.triton_time_ms, result.triton_p20_ms = timing["median_ms"], timing["p20_ms"]
            result.triton_p80_ms, result.spread, result.timing_stage = timing["p80_ms"], timing["spread"], "retime"
            key = result_key(result.problem, result.kernel_config)
            self.rows[key] = result.to_dict()
            self.journal.append({"kind": "retime", "key": key, "problem": self.pkeys[pi], "row": self.rows[key]})
        self._mark_retimed(pi, len(rows) - len(errors), "; ".join(errors))

    def _mark_retimed(self, pi: int, n: int, error: str) -> None:
        self.retiming.discard(pi)
        self.retimed.add(self.pkeys[pi])
        self._mark("re-time done", first=False)
        self.journal.append({"kind": "retimed", "problem": self.pkeys[pi], "configs": n, "error": error})
        if error:
            self.stats.notes.append(f"re-time of {self.problems[pi].describe()}: {error}")

    # ---- failures -----------------------------------------------------------------------------------------

    def _failed(self, slot: _Slot, how: str, tag: tuple | None = None) -> None:
        """The worker died or timed out on its request: record what it was doing, then replace the worker."""
        tag = tag or slot.proc.busy["tag"]
        code = slot.proc.exitcode() if how == "died" else None
        self._restart(slot)
        if how == "died":
            cause = "killed by signal %d" % -code if code is not None and code < 0 else f"exit code {code}"
            if code == EXIT_STICKY:
                cause = "left after a sticky CUDA error"
            status, error = "crashed", f"{slot.proc.name} died ({cause})"
        else:
            status, error = "timeout", f"no answer from {slot.proc.name} within the time limit; worker killed"
        kind = tag[0]
        if kind == "setup":
            self._setup_failed(slot, tag[1], error, restarted=True)
        elif kind in ("compile", "run"):
            _, pi, key, cfg = tag[:4]
            if kind == "compile":
                self.listener.compiled()
                if how == "timeout":
                    error = f"compile took longer than {self.options.config_timeout_s:g} s; {slot.proc.name} killed"
            elif how == "timeout":
                error = f"no result within {self.options.config_timeout_s:g} s (hang?); {slot.proc.name} killed"
            self._finish(pi, key, self._result(pi, cfg, status, error), kind, slot.proc.name)
        else:
            self._mark_retimed(tag[1], 0, f"{status}: {error}")

    def _restart(self, slot: _Slot) -> None:
        """Kill the slot's process (if any); the next request starts a fresh one, set up again."""
        slot.proc.kill()
        slot.problem = None
        self.stats.restarts += 1

    # ---- results ------------------------------------------------------------------------------------------

    def _result(self, pi: int, cfg, status: str, error: str, report: dict | None = None) -> KernelResult:
        problem = self.problems[pi]
        result = KernelResult(problem, cfg, status, error,
                              predicted_shared_mem_bytes=shared_memory_bytes(cfg, problem.element_size))
        if report:
            result.n_regs, result.n_spills = report.get("n_regs"), report.get("n_spills")
            result.shared_mem_bytes = report.get("shared_mem_bytes")
        return result

    def _finish(self, pi: int, key: str, result: KernelResult, stage: str, worker: str) -> None:
        """Journal a finished config (durably, first), then count it."""
        row = result.to_dict()
        self.journal.append({"kind": "result", "key": key, "problem": self.pkeys[pi], "stage": stage, "worker": worker, "row": row})
        self.rows[key] = row
        self.outstanding[pi] -= 1
        self.listener.update(result)
        if not any(self.outstanding):
            self._mark("every config screened")

    def _shutdown(self) -> None:
        """Kill every worker (each result is in the journal already: a worker has nothing left to save, and a
        GPU worker's orderly exit takes a CUDA teardown), then collect the compile workers asked to stop."""
        slots = getattr(self, "compile_slots", []) + getattr(self, "gpu_slots", [])
        for slot in slots:
            slot.proc.kill()
        deadline = time.monotonic() + 2.0
        for slot in slots:
            slot.proc.reap(max(0.0, deadline - time.monotonic()))

    def _results(self, wall_s: float) -> SweepResults:
        """The sweep's results, read back from the journal file (the last record of each config wins)."""
        from gemmtune.sweep import environment_metadata

        _, records, _ = read_journal(self.journal.path)
        rows = final_rows(records)
        missing = [cfg.to_string() for configs in self.configs for key, cfg in configs if key not in rows]
        if missing:
            raise EngineError(f"{len(missing)} configs have no result in {self.journal.path}: {', '.join(missing[:3])}…")
        results = [KernelResult.from_dict(rows[key]) for configs in self.configs for key, _ in configs]
        meta = environment_metadata(self.plan, self.backend, self.timing)
        stages = retiming.describe(self.timing, self.options.retime_top, self.screen, self.retime_budget)
        meta.update(
            engine="parallel",
            timing_method=f"screen: {stages['screen']}; re-time: {stages['retime']}",
            timing_stages=stages,
            retime_top=self.options.retime_top,
            gpus=[self._gpu_name(i) for i in self.gpu_ids],
            gpu_devices=sorted(self.stats.devices),
            baseline_timing=sorted(self.stats.baseline_timing),
            compile_stage=(
                f"Triton compile-only for sm{self.target['arch']} in {len(self.compile_slots)} processes "
                "(JITFunction.warmup on meta tensors), registers and spills by cuobjdump"
                if self.compile_stage and self.cuda else "none: each GPU worker compiled its configs"
                if self.cuda else "none (interpreter)"
            ),
            compile_workers=len(self.compile_slots),
            compile_cpu_s=round(self.stats.compile_s, 3),
            gpu_worker_compiles=self.stats.gpu_compiles,
            config_timeout_s=self.options.config_timeout_s,
            worker_restarts=self.stats.restarts,
            resumed_configs=self.resumed,
            journal=str(self.journal.path),
            wall_s=round(wall_s, 3),
            timeline_s=self.stats.timeline,
            worker_busy_s={kind: round(s, 3) for kind, s in sorted(self.stats.busy_s.items())},
            engine_notes=self.stats.notes,
        )
        return SweepResults(results + self.plan.pruned_results(), meta)


def run_engine(plan, backend: str, journal: Path, options: EngineOptions | None = None, listener=None) -> SweepResults:
    """Run every kept config of `plan` with parallel compilation and isolated GPU workers; returns all results.

    backend: 'cuda' or 'interpreter'. journal: the journal file (see gemmtune.engine.journal.journal_path);
    finished configs found there are not run again. listener: optional object with begin(total, compile_total,
    done), compiled(), update(result or None) and stage(text) (gemmtune.progress.SweepProgress).
    Raises JournalMismatchError (a ValueError) for a journal of another sweep, ValueError for bad options,
    SweepInterrupted on Ctrl-C, EngineError when a problem cannot be set up.
    """
    return _Engine(plan, backend, journal, options or EngineOptions(), listener).run()


def parse_gpus(text: str) -> list[int]:
    """'0,1' → [0, 1] (visible GPU indices, no repeats). Raises ValueError for anything else."""
    try:
        ids = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--gpus: expected comma-separated GPU indices such as 0,1, got {text!r}") from None
    if not ids or any(i < 0 for i in ids):
        raise ValueError(f"--gpus: expected comma-separated GPU indices such as 0,1, got {text!r}")
    return list(dict.fromkeys(ids))
