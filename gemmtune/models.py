"""Model presets: the MoE layer sizes of real models, and the grouped GEMMs one layer runs.

A preset (configs/models/<name>.toml) gives experts (E), hidden_size, intermediate_size, topk and the public
source of those numbers. One MoE MLP layer runs two grouped GEMMs per pass:
- gate_up: N = 2·intermediate_size (gate and up projections fused), K = hidden_size, permute_x (X is
  gathered from token order on load).
- down:    N = hidden_size, K = intermediate_size, permute_y (Y is scattered back to token order on store).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gemmtune import presets
from gemmtune.problem import Problem

MODELS_DIR = Path(__file__).resolve().parent.parent / "configs" / "models"
GEMMS = ("gate_up", "down")


class ModelError(ValueError):
    """An unknown preset name or a malformed model file."""


@dataclass(frozen=True)
class ModelPreset:
    """One MoE model's layer sizes. experts: E; topk: experts per token; source: where the numbers come from."""

    name: str
    experts: int
    hidden_size: int
    intermediate_size: int
    topk: int
    source: str = ""

    def gemm_shape(self, gemm: str) -> tuple[int, int, str]:
        """(N, K, permute) of 'gate_up' or 'down'. Raises ModelError for another name."""
        if gemm == "gate_up":
            return 2 * self.intermediate_size, self.hidden_size, "x"
        if gemm == "down":
            return self.hidden_size, self.intermediate_size, "y"
        raise ModelError(f"unknown gemm {gemm!r}: expected one of {', '.join(GEMMS)}")


def available_models() -> list[str]:
    return presets.names(MODELS_DIR)


def all_presets() -> list[ModelPreset]:
    """Every preset of configs/models, by name. Raises ModelError if one of the files is malformed."""
    return [load_model(name) for name in available_models()]


def load_model(name_or_path: str | Path) -> ModelPreset:
    """A preset by name (see available_models) or from a TOML file with the same keys.

    Raises ModelError for an unknown name, an unreadable file, or missing or non-positive sizes.
    """
    path, data = presets.read_toml(name_or_path, MODELS_DIR, "model", ModelError)
    sizes = {}
    for key in ("experts", "hidden_size", "intermediate_size", "topk"):
        value = data.get(key)
        if type(value) is not int or value <= 0:
            raise ModelError(f"model file {path}: {key} must be a positive whole number, got {value!r}")
        sizes[key] = value
    return ModelPreset(name=str(data.get("name", path.stem)), source=str(data.get("source", "")), **sizes)


def parse_tokens(text: str) -> list[int]:
    """'512,4096,16384' → [512, 4096, 16384]. Raises ModelError on anything but positive whole numbers."""
    try:
        tokens = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ModelError(f"--tokens: expected comma-separated whole numbers, got {text!r}") from None
    if not tokens or any(t <= 0 for t in tokens):
        raise ModelError(f"--tokens: expected positive whole numbers, got {text!r}")
    return list(dict.fromkeys(tokens))


def layer_problems(
    model: ModelPreset,
    tokens: list[int],
    modes: list[str],
    dtype: str = "bf16",
    routing: str = "uniform",
    seed: int = 0,
    gemms: tuple[str, ...] = GEMMS,
) -> list[Problem]:
    """Both GEMMs of one layer × token counts × modes, as Problems labelled with their gemm."""
    problems = []
    for gemm in gemms:
        N, K, permute = model.gemm_shape(gemm)
        for M in tokens:
            for mode in modes:
                problems.append(Problem(mode, model.experts, M, N, K, model.topk, dtype, permute, routing, seed, gemm))
    return problems
