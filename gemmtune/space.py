"""The config space: value lists per knob, loaded from TOML, enumerated as a product and pruned.

A space file (configs/<name>.toml) maps knob names to lists of values, e.g. `BLOCK_SIZE_M = [64, 128]`.
Knobs a mode's config class lacks are ignored for that mode (use_tma_load_dy means nothing to fwd), and
knobs a file leaves out keep their dataclass default. permute_x and permute_y come from the problem.
A table named after a mode ([fwd], [dx], [dw]) replaces the lists it names for that mode only, e.g.

    GROUP_SIZE_M = [8]
    [dw]
    GROUP_SIZE_M = [8, 32]
"""

from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass, field, fields
from pathlib import Path

from gemmtune import presets
from gemmtune.config import CONFIG_CLASSES, KernelConfig, config_class
from gemmtune.device import DeviceProperties
from gemmtune.problem import Problem
from gemmtune.pruning import PrunedConfig, prune

CONFIGS_DIR = Path(__file__).resolve().parent.parent / "configs"
PROBLEM_FIELDS = ("permute_x", "permute_y")
TUNABLE_FIELDS = sorted(
    {name for cls in CONFIG_CLASSES.values() for name in cls.field_names()} - set(PROBLEM_FIELDS)
)
# Each knob's default sets what a space may list for it: true/false for a bool; whole numbers for an int,
# from 0 where the default 0 means off (TAIL_ROWS), else from 1.
FIELD_DEFAULTS = {f.name: f.default for cls in CONFIG_CLASSES.values() for f in fields(cls)}


class SpaceError(ValueError):
    """An unknown space name, an unreadable or malformed space file, or a bad override."""


@dataclass(frozen=True)
class SearchSpace:
    """Value lists by knob name, and per mode the lists that replace them for that mode (`by_mode`, from the
    file's [fwd]/[dx]/[dw] tables). `name` is the preset name or the file it came from."""

    name: str
    values: dict[str, list] = field(default_factory=dict)
    by_mode: dict[str, dict[str, list]] = field(default_factory=dict)

    def for_mode(self, mode: str) -> dict[str, list]:
        """The value lists that `mode` enumerates: the top-level ones with its own table's in their place."""
        return {**self.values, **self.by_mode.get(mode, {})}

    def with_overrides(self, overrides: dict[str, list]) -> "SearchSpace":
        """A copy with the given knobs' value lists replaced for every mode (command-line overrides)."""
        given = {k: v for k, v in overrides.items() if v}
        merged = _validated({**self.values, **given}, self.name)
        by_mode = {mode: {k: v for k, v in table.items() if k not in given} for mode, table in self.by_mode.items()}
        return SearchSpace(self.name, merged, by_mode)

    def size(self, mode: str) -> int:
        """Configs in the product for `mode`, before pruning."""
        names = set(config_class(mode).field_names())
        sizes = [len(v) for k, v in self.for_mode(mode).items() if k in names]
        return int(_product(sizes))


def _product(sizes):
    total = 1
    for size in sizes:
        total *= size
    return total


def _validated(values: dict, source: str) -> dict[str, list]:
    out = {}
    for name, raw in values.items():
        if name not in TUNABLE_FIELDS:
            hint = " (set by the problem's --permute)" if name in PROBLEM_FIELDS else ""
            raise SpaceError(f"space {source}: unknown knob {name!r}{hint}; knobs are {', '.join(TUNABLE_FIELDS)}")
        items = raw if isinstance(raw, list) else [raw]
        if not items:
            raise SpaceError(f"space {source}: {name} has an empty value list")
        want = type(FIELD_DEFAULTS[name])
        least = 0 if FIELD_DEFAULTS[name] == 0 else 1
        for item in items:
            if type(item) is not want or (want is int and item < least):
                kind = "true/false" if want is bool else ("whole numbers ≥ 0" if least == 0 else "positive whole numbers")
                raise SpaceError(f"space {source}: {name} takes {kind}, got {item!r}")
        out[name] = list(dict.fromkeys(items))
    return out


def available_spaces() -> list[str]:
    """Names of the spaces shipped in configs/."""
    return presets.names(CONFIGS_DIR)


def load_space(name_or_path: str | Path) -> SearchSpace:
    """Load a space by preset name ('quick', 'focused', 'default', 'exhaustive') or from a TOML file path.

    Raises SpaceError for an unknown name, a missing or malformed file, unknown knobs and bad values, a table
    that names no mode, or a mode table's knob that the mode's configs do not have.
    """
    path, data = presets.read_toml(name_or_path, CONFIGS_DIR, "space", SpaceError)
    name = path.stem if path.parent == CONFIGS_DIR else str(path)
    tables = {key: data.pop(key) for key in list(data) if isinstance(data[key], dict)}
    by_mode = {}
    for mode, table in tables.items():
        if mode not in CONFIG_CLASSES:
            known = ", ".join(f"[{m}]" for m in CONFIG_CLASSES)
            raise SpaceError(f"space {name}: unknown table [{mode}]; mode tables are {known}")
        by_mode[mode] = _validated(table, name)
        for knob in by_mode[mode]:
            if knob not in config_class(mode).field_names():
                raise SpaceError(f"space {name}: [{mode}] sets {knob}, which {mode} configs do not have")
    return SearchSpace(name, _validated(data, name), by_mode)


def parse_int_list(text: str, knob: str) -> list[int]:
    """'64,128' → [64, 128] for a command-line override. Raises SpaceError on anything else."""
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SpaceError(f"--{knob}: expected comma-separated whole numbers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise SpaceError(f"--{knob}: expected positive whole numbers, got {text!r}")
    return values


def enumerate_configs(space: SearchSpace, problem: Problem) -> list[KernelConfig]:
    """The product of `space`'s value lists for problem.mode (space.for_mode) in that mode's config class, with
    the problem's permutation."""
    cls = config_class(problem.mode)
    values = space.for_mode(problem.mode)
    names = [n for n in cls.field_names() if n in values and n not in PROBLEM_FIELDS]
    fixed = {"permute_x": problem.permute_x, "permute_y": problem.permute_y}
    return [cls(**fixed, **dict(zip(names, combo))) for combo in itertools.product(*(values[n] for n in names))]


@dataclass
class PrunedSpace:
    """The outcome of get_kernel_configs: configs to run, configs pruned (with rule and reason)."""

    kept: list[KernelConfig]
    pruned: list[PrunedConfig]

    @property
    def total(self) -> int:
        return len(self.kept) + len(self.pruned)

    def counts_by_rule(self) -> dict[str, int]:
        """Configs pruned by each rule, in the order the rules first fired."""
        return dict(collections.Counter(p.rule for p in self.pruned))


def get_kernel_configs(problem: Problem, device: DeviceProperties, space: SearchSpace | str = "default") -> PrunedSpace:
    """Enumerate `space` for problem.mode and prune it for `problem` on `device` (rules in gemmtune.pruning).

    Raises SpaceError for an unknown or malformed space, ValueError for an unknown mode.
    """
    if isinstance(space, str):
        space = load_space(space)
    kept, pruned = prune(enumerate_configs(space, problem), problem, device)
    return PrunedSpace(kept, pruned)
