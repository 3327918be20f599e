"""The optional C kernel of the bots' play-outs (engine/bots/_kernel.c); the metadata is in pyproject.toml.

``optional=True``: without a C compiler the install goes on and the engine uses its pure-Python play-outs.
``-ffp-contract=off``: no fused multiply-adds, so the kernel's sums are the Python functions' to the last bit
(``-O3`` vectorises nothing that would reorder a float sum: that would need ``-ffast-math``).
``-O3`` and, on x86-64, the x86-64-v2 level (SSE4.2 and POPCNT, every x86-64 server since about 2010): the
kernel counts and finds bits in card masks at every step, and generic code for those cost a review and the
strong bot's cards about a third of their time (docs/performance.md). ``CALLBREAK_KERNEL_MARCH`` names another
level for a machine of its own (``native``, ``x86-64-v3``) or none (an empty value).
"""

import os
import platform

from setuptools import Extension, setup

march = os.environ.get("CALLBREAK_KERNEL_MARCH", "x86-64-v2" if platform.machine() in ("x86_64", "AMD64") else "")

setup(
    ext_modules=[
        Extension(
            "engine.bots._kernel", ["engine/bots/_kernel.c"], optional=True,
            extra_compile_args=["-O3", *([f"-march={march}"] if march else []), "-ffp-contract=off"],
        ),
    ],
)
