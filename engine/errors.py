"""Typed errors with stable codes: the site maps ``code`` to its API errors and the UI to words."""

from __future__ import annotations


class EngineError(ValueError):
    """Any input the engine refuses; ``code`` is stable, the message is for people."""

    code = "engine_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class CardError(EngineError):
    """Text that is not a card in the spec's notation."""

    code = "bad_card"


class IllegalAction(EngineError):
    """A well-formed action the rules do not allow now (wrong turn, wrong phase, illegal card…)."""

    code = "illegal_action"


class ReplayError(EngineError):
    """A log that cannot be replayed: ``index`` is the first bad action, ``error`` says why."""

    code = "bad_log"

    def __init__(self, index: int, error: EngineError) -> None:
        super().__init__(f"action #{index + 1} (index {index}): {error}", error.code)
        self.index = index
        self.error = error


class VerifyError(EngineError):
    """A replay document that does not prove itself; the message names the first violation."""

    code = "verify_failed"
