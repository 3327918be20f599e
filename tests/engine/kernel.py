"""The optional C kernel, for the tests that compare it with the pure-Python functions.

It may be missing only on a machine without a C compiler (the tests then skip, saying so); under ``CI=true``
a missing kernel is an error, so a broken build cannot pass as a skip.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

KERNEL: ModuleType | None
try:
    from engine.bots import _kernel as KERNEL
except ImportError:  # pragma: no cover - a machine without a C compiler
    KERNEL = None

if KERNEL is None and os.environ.get("CI") == "true":
    raise RuntimeError("the C kernel is not built (setup.py builds it at `pip install -e .`); CI needs it")

needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built (no C compiler)")
