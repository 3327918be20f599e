"""Domain errors raised by commands and reads; the API turns them into ``{code, detail}``."""


class GameError(Exception):
    """A refused request. ``status`` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, code: str, detail: str, **extra: object) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class MatchNotFound(GameError):
    """Unknown match, or one the user has no seat at: both look the same, so nothing leaks."""

    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such match.")


class StaleSeq(GameError):
    """The client's expected ``seq`` is not the match's: it must refetch and decide again."""

    status = 409

    def __init__(self, current_seq: int, sent_seq: int) -> None:
        super().__init__(
            "stale_seq",
            f"The match is at seq {current_seq}, not {sent_seq}; refetch it and try again.",
            seq=current_seq,
        )


class NotFinished(GameError):
    status = 409

    def __init__(self, detail: str = "The match is not finished; its replay (with the seed) is shown only at the end."
                 ) -> None:
        super().__init__("not_finished", detail)


class TableNotFound(GameError):
    """Unknown table, or a private one the user may not see: both look the same."""

    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such table.")


class TableConflict(GameError):
    status = 409


class Forbidden(GameError):
    """A request the caller may not make, whoever they are seated with (403 with its own ``code``)."""

    status = 403


class NotHost(GameError):
    status = 403

    def __init__(self) -> None:
        super().__init__("not_host", "Only the host may do that.")


class PlayerNotFound(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such player.")


class NotFound(GameError):
    """Something of the caller's that does not exist (or is someone else's: both look the same)."""

    status = 404

    def __init__(self, detail: str) -> None:
        super().__init__("not_found", detail)


class ChatClosed(GameError):
    """Chat at a match whose chat is not open to the caller (not a private table's match among people invited
    to it, or the caller resigned): the caller is seated there, so the match itself is no secret."""

    status = 403

    def __init__(self, detail: str = "Chat is open only at a private table's match, among the people seated there."
                 ) -> None:
        super().__init__("chat_closed", detail)
