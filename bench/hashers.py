"""What one password hash costs, by hasher: the sign-up and log-in throughput of a crowd is bounded by it.

    nice -n 10 .venv/bin/python bench/hashers.py [--samples 20]

Prints the median and the best of ``--samples`` hashes (milliseconds, wall clock, one thread) for Django's
PBKDF2 (its default before games/platform/passwords.py), Django's own Argon2 cost (100 MiB, 2 passes, 8 lanes) and
the site's Argon2id (19 MiB, 2 passes, 1 lane), then how many hashes a second the machine's CPUs allow at
the site's cost.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")


def measure(hash_once: Callable[[], object], samples: int) -> tuple[float, float]:
    hash_once()
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        hash_once()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    import django

    django.setup()
    from django.contrib.auth.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher

    from games.platform.passwords import Argon2idHasher

    password = "correct horse battery staple"
    rows = [("PBKDF2-SHA256, Django's default", PBKDF2PasswordHasher()),
            ("Argon2id, Django's cost", Argon2PasswordHasher()),
            ("Argon2id, the site's (games.platform.passwords)", Argon2idHasher())]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    site = 0.0
    for name, hasher in rows:
        median, best = measure(lambda h=hasher: h.encode(password, h.salt()), args.samples)
        print(f"{name:42s} median {median:7.1f} ms   best {best:7.1f} ms")
        site = median
    cpus = os.cpu_count() or 1
    print(f"at the site's cost: about {1000 / site * cpus:.0f} hashes a second on {cpus} CPUs")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
