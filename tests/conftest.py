"""Test set-up: kernels run on Triton's CPU interpreter unless a CUDA GPU is visible.

Importing gemmtune first makes that choice (gemmtune/backend.py) before anything imports triton.
"""

import gemmtune  # noqa: F401  (must come before triton)
import pytest
import torch


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
