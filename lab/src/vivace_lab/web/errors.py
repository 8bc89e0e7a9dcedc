"""What a page says went wrong: an HTTP status and a message for people, never a stack trace."""

from __future__ import annotations


class PageError(Exception):
    """A request the app cannot answer: ``status`` 400 (bad input, ``parameter`` names it) or
    404 (nothing of that name or id)."""

    def __init__(self, status: int, message: str, parameter: str | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.parameter = parameter
        self.hint = hint


def bad_parameter(parameter: str, message: str) -> PageError:
    return PageError(400, f"{parameter}: {message}", parameter)


def not_found(message: str, hint: str | None = None) -> PageError:
    return PageError(404, message, hint=hint)
