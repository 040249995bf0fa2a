"""The journal: each finished config appended durably, as one JSON line, next to the results file.

`<out>/<name>.journal.jsonl` starts with a header line (the sweep's fingerprint: problems, configs, timing,
device), then one record per line, each written with a single write and fsync'd before the engine goes on:

    {"kind": "result",  "key": K, "problem": P, "stage": "compile" | "run", "worker": "gpu0", "row": {...}}
    {"kind": "retime",  "key": K, "problem": P, "row": {...}}       the same config, re-timed (replaces it)
    {"kind": "retimed", "problem": P, "configs": n, "error": ""}    problem P's re-time stage is finished
    {"kind": "resume",  "at": unix time, "done": n}                  a later run picked the journal up

K = result_key(problem, config) and P = problem_key(problem) are hashes of the canonical JSON of the problem
and config, so a config is found again across runs. `row` is KernelResult.to_dict(). A kill -9 can at worst
tear the last line: readers skip it and a resumed journal is cut back to its last whole line before
appending. The results files are built from the journal: the last record of each key wins, so nothing
appears twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

VERSION = 1


class JournalMismatchError(ValueError):
    """The journal found at the results path was written by a different sweep."""


def journal_path(out_dir: Path, name: str) -> Path:
    return Path(out_dir) / f"{name}.journal.jsonl"


def _digest(value, size: int) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:size]


def problem_key(problem) -> str:
    """A stable 16-hex-digit key of a gemmtune.problem.Problem."""
    return _digest(problem.to_dict(), 16)


def result_key(problem, config) -> str:
    """A stable 20-hex-digit key of one (problem, config) pair."""
    return _digest({"problem": problem.to_dict(), "mode": config.mode, "config": config.to_dict()}, 20)


def fingerprint(plan, timing: str, device_name: str) -> dict:
    """What identifies a sweep for resuming: its problems, its configs to run, the timing method, the device."""
    keys = sorted(result_key(p.problem, c) for p in plan.problems for c in p.space.kept)
    return {
        "problems": [p.problem.to_dict() for p in plan.problems],
        "configs": _digest(keys, 16),
        "timing": timing,
        "device": device_name,
    }


def read_journal(path: Path) -> tuple[dict | None, list[dict], int]:
    """(header or None, records after it, bytes up to the end of the last whole line).

    A torn last line (no newline, or not JSON) is left out; so is any other line that is not JSON.
    """
    data = Path(path).read_bytes()
    good = data.rfind(b"\n") + 1
    header, records = None, []
    for line in data[:good].splitlines():
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        if not isinstance(record, dict):
            continue
        if header is None and record.get("kind") == "header":
            header = record
        else:
            records.append(record)
    return header, records, good


def _differences(old: dict, new: dict) -> list[str]:
    labels = {"problems": "problems", "configs": "config space", "timing": "timing method", "device": "device"}
    return [label for key, label in labels.items() if old.get(key) != new.get(key)]


class Journal:
    """An open journal. `records` holds what earlier runs wrote (empty for a new journal)."""

    def __init__(self, path: Path, records: list[dict], resumed: bool):
        self.path = Path(path)
        self.records = records
        self.resumed = resumed
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    @classmethod
    def open(cls, path: Path, header: dict, resume: bool | None = None) -> "Journal":
        """Open `path` for a sweep with `header` ({"fingerprint": ..., ...}).

        resume None or True: pick up an existing journal of the same sweep (a journal of another sweep raises
        JournalMismatchError naming what differs). resume False: move an existing journal to `<path>.old`
        and start a new one. A journal without a whole header line is started afresh.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and resume is False:
            os.replace(path, path.with_name(path.name + ".old"))
        if path.exists():
            old_header, records, good = read_journal(path)
            if old_header is not None:
                diff = _differences(old_header.get("fingerprint", {}), header["fingerprint"])
                if diff:
                    raise JournalMismatchError(
                        f"journal {path} belongs to a different sweep (different {', '.join(diff)}); "
                        "pass --no-resume to start over (the old journal is kept as .old) or --name to write elsewhere"
                    )
                with open(path, "r+b") as f:  # cut a torn last line before appending
                    f.truncate(good)
                journal = cls(path, records, resumed=True)
                journal.append({"kind": "resume", "at": time.time(), "done": len(records)})
                return journal
            path.unlink()
        journal = cls(path, [], resumed=False)
        journal.append({"kind": "header", "version": VERSION, **header})
        _fsync_dir(path.parent)
        return journal

    def append(self, record: dict) -> None:
        """Write `record` as one line and fsync it: once this returns, a kill -9 cannot lose it."""
        line = (json.dumps(record, default=str) + "\n").encode()
        while line:
            line = line[os.write(self._fd, line):]
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def final_rows(records: list[dict]) -> dict[str, dict]:
    """Key → row of every config in `records`; a later record of a key (a re-time) replaces an earlier one."""
    rows: dict[str, dict] = {}
    for record in records:
        if record.get("kind") in ("result", "retime") and "key" in record and "row" in record:
            rows[record["key"]] = record["row"]
    return rows


def retimed_problems(records: list[dict]) -> set[str]:
    """Problem keys whose re-time stage a journal marks finished."""
    return {r["problem"] for r in records if r.get("kind") == "retimed"}
