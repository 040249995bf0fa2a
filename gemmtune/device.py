"""The target GPU: the limits that pruning checks configs against.

Read from the active GPU through Triton's driver, or taken from a preset to plan without one. Preset
figures are the vendors' (CUDA C Programming Guide, "Compute Capabilities" table: opt-in shared memory per
block, 64 K 32-bit registers per SM) and the SM counts of each product's datasheet.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass


class DeviceError(ValueError):
    """An unknown GPU preset or no GPU where one is needed."""


@dataclass(frozen=True)
class DeviceProperties:
    """Limits of one GPU.

    NUM_SM: streaming multiprocessors. NUM_REGS: 32-bit registers per SM (a thread may use at most 255).
    SIZE_SMEM: shared memory per block, opt-in maximum, in bytes. WARP_SIZE: threads per warp.
    compute_capability: (major, minor); TMA needs (9, 0) or newer.
    """

    name: str
    NUM_SM: int
    NUM_REGS: int
    SIZE_SMEM: int
    WARP_SIZE: int
    compute_capability: tuple[int, int]

    @property
    def has_tma(self) -> bool:
        return self.compute_capability >= (9, 0)

    @property
    def arch(self) -> int:
        """Triton's target arch number, e.g. 90 for compute capability 9.0."""
        return self.compute_capability[0] * 10 + self.compute_capability[1]

    def to_dict(self) -> dict:
        return asdict(self)


PRESETS: dict[str, DeviceProperties] = {
    "h100": DeviceProperties("NVIDIA H100 80GB HBM3", 132, 65536, 232448, 32, (9, 0)),
    "h100-pcie": DeviceProperties("NVIDIA H100 PCIe", 114, 65536, 232448, 32, (9, 0)),
    "h200": DeviceProperties("NVIDIA H200", 132, 65536, 232448, 32, (9, 0)),
    "b200": DeviceProperties("NVIDIA B200", 148, 65536, 232448, 32, (10, 0)),
    "a100": DeviceProperties("NVIDIA A100-SXM4-80GB", 108, 65536, 166912, 32, (8, 0)),
    "l40s": DeviceProperties("NVIDIA L40S", 142, 65536, 101376, 32, (8, 9)),
    "rtx4090": DeviceProperties("NVIDIA GeForce RTX 4090", 128, 65536, 101376, 32, (8, 9)),
    "rtx3090": DeviceProperties("NVIDIA GeForce RTX 3090", 82, 65536, 101376, 32, (8, 6)),
}


def preset(name: str) -> DeviceProperties:
    """The preset called `name` (case-insensitive). Raises DeviceError listing the known names."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise DeviceError(f"unknown GPU preset {name!r}: expected one of {', '.join(PRESETS)}") from None


@functools.cache
def active_device(index: int = 0) -> DeviceProperties:
    """Properties of CUDA device `index`, read through Triton's driver (cached per device).

    Raises DeviceError when no CUDA device is visible.
    """
    import torch

    if not torch.cuda.is_available():
        raise DeviceError("no CUDA GPU is visible; pass --gpu NAME to plan against a preset")
    from triton.runtime import driver

    props = driver.active.utils.get_device_properties(index)
    return DeviceProperties(
        name=torch.cuda.get_device_name(index),
        NUM_SM=props["multiprocessor_count"],
        NUM_REGS=props["max_num_regs"],
        SIZE_SMEM=props["max_shared_mem"],
        WARP_SIZE=props["warpSize"],
        compute_capability=torch.cuda.get_device_capability(index),
    )


def resolve_device(gpu: str | None) -> DeviceProperties:
    """The preset `gpu` if given, else the active GPU, else the h100 preset (planning on a CPU machine)."""
    if gpu:
        return preset(gpu)
    try:
        return active_device()
    except DeviceError:
        return PRESETS["h100"]
