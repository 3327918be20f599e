"""The optional C kernel (``_kernel.c``), loaded once for every module that has a C path.

None when it is not built (no compiler at install) or when ``CALLBREAK_PURE_PYTHON`` is set; each user
then runs its pure-Python functions, which the kernel matches result for result (tests/engine/bots/test_kernel.py).
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType


def _load() -> ModuleType | None:
    if os.environ.get("CALLBREAK_PURE_PYTHON"):
        return None
    try:
        return import_module(__name__.rpartition(".")[0] + "._kernel")
    except ImportError:
        return None


#: The C kernel's module, or None.
KERNEL: ModuleType | None = _load()
