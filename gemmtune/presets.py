"""Preset files: TOML tables found by name in a folder of configs/, or given as a path."""

from __future__ import annotations

import tomllib
from pathlib import Path


def names(folder: Path) -> list[str]:
    """The presets in `folder`: its *.toml files' stems, sorted."""
    return sorted(p.stem for p in folder.glob("*.toml"))


def read_toml(name_or_path: str | Path, folder: Path, kind: str, error: type[ValueError]) -> tuple[Path, dict]:
    """(path, parsed table) of the preset `name_or_path` in `folder`, or of that .toml file.

    kind names the preset in messages ('space', 'model'). Raises `error` for an unknown name, a missing file,
    or a file that is not valid TOML.
    """
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = folder / f"{name_or_path}.toml"
        if not path.is_file():
            known = ", ".join(names(folder))
            raise error(f"unknown {kind} {str(name_or_path)!r}: expected one of {known} or a .toml file")
    if not path.is_file():
        raise error(f"{kind} file {path} does not exist")
    try:
        return path, tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{kind} file {path} is not valid TOML: {exc}") from None
