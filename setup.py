"""The optional C kernel of the bots' play-outs (engine/bots/_kernel.c); the metadata is in pyproject.toml.

``optional=True``: without a C compiler the install goes on and the engine uses its pure-Python play-outs.
``-ffp-contract=off``: no fused multiply-adds, so the kernel's sums are the Python functions' to the last bit.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.bots._kernel", ["engine/bots/_kernel.c"], optional=True,
            extra_compile_args=["-O2", "-ffp-contract=off"],
        ),
    ],
)
