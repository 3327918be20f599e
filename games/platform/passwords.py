"""Password hashing that a crowd of sign-ups and log-ins cannot turn against the database.

A password hash is deliberately slow (PBKDF2 at Django's cost: about 300 ms of CPU here). A sign-up or a
log-in held its pooled database connection while it hashed, so 200 people signing up at once starved the pool
(8 connections a web process): 120 of them waited 20 s and got 503. Now:

- the hasher is Argon2id (``Argon2idHasher``, first in ``PASSWORD_HASHERS``) at OWASP's first recommended cost,
  19 MiB of memory, 2 passes, 1 lane: about 20 ms a hash on this machine, where Django's Argon2 defaults
  (100 MiB, 8 lanes) take 150 ms and PBKDF2 300 ms (docs/performance.md). Memory-hard, so a guessing rig gains
  far less on it than on PBKDF2. Hashes made earlier (PBKDF2, or Argon2 at another cost) are redone at the
  next log-in: Django does it when the first hasher is another or its cost changed.
- before it hashes, the hasher gives its connection back to the pool (``release_connection``), unless a
  transaction is open: the next query takes one again. Every hash passes through it: the API's and the HTML
  form's sign-up (``hash_password``, called before the sign-up's transaction), the API's, the site's and the
  admin's log-ins (Django's ``ModelBackend.authenticate`` calls ``check_password``, which verifies, then sets
  the new hash), password changes and resets.
- at most ``PASSWORD_HASH_SLOTS`` hashes run at once in a process (they use a CPU and 19 MiB each); the others
  queue for a slot, holding no connection, for at most ``PASSWORD_HASH_WAIT`` seconds, then answer 503 with
  ``Retry-After`` (``HashingBusy``, ``games.web.api_errors``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher, make_password
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections


class HashingBusy(Exception):
    """Every hashing slot stayed taken for ``PASSWORD_HASH_WAIT`` seconds: the caller answers 503."""

    retry_after = 5


def release_connection() -> bool:
    """Give this thread's pooled database connections back to their pool, unless a transaction holds one;
    whether any went back. Without a pool nothing is closed (a new connection costs more than it saves)."""
    released = False
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block or getattr(conn, "pool", None) is None:
            continue
        try:
            conn.close()
        except SynchronousOnlyOperation:  # called on an event loop: leave it
            continue
        released = True
    return released


_slots_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = max(1, settings.PASSWORD_HASH_SLOTS)
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def hashing() -> Iterator[None]:
    """Around one hash: the connection back to the pool, then a slot (queued, bounded)."""
    release_connection()
    slots = _semaphore()
    if not slots.acquire(timeout=settings.PASSWORD_HASH_WAIT):
        raise HashingBusy()
    try:
        yield
    finally:
        slots.release()


class Argon2idHasher(Argon2PasswordHasher):
    """Django's Argon2 hasher (Argon2id; hashes are ``argon2$argon2id$…``) at OWASP's 19 MiB, t=2, p=1."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1

    def encode(self, password: str, salt: str) -> str:
        with hashing():
            return str(super().encode(password, salt))

    def verify(self, password: str, encoded: str) -> bool:
        with hashing():
            return bool(super().verify(password, encoded))


class PBKDF2Hasher(PBKDF2PasswordHasher):
    """Django's PBKDF2 (``pbkdf2_sha256$…``), for the hashes made before Argon2id: checked once more each, at the
    next log-in, which stores an Argon2id hash in their place."""

    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        with hashing():
            return str(super().encode(password, salt, iterations))


def hash_password(password: str) -> str:
    """The hash to store for a new account's ``password``; call it before any transaction opens, so that no
    connection is held while it runs."""
    return str(make_password(password))

