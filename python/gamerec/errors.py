"""The exceptions gamerec raises; each carries the diagnostic's `code`."""

from __future__ import annotations

from typing import Optional


class GamerecError(Exception):
    """A problem gamerec reports: `code` is the diagnostic's code
    (`record::no_games`, `reversi::no_flip`), when one applies."""

    def __init__(self, message: str, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.diagnostic = None

    def __str__(self) -> str:
        return self.message


class ReadError(GamerecError, ValueError):
    """A file (or bytes) that cannot be read as game records."""


class IllegalMove(GamerecError, ValueError):
    """A move the position refuses; `diagnostic` says why and where in the
    move's text."""


class UnknownGame(GamerecError, ValueError):
    """A game name gamerec does not know."""


class BadSetup(GamerecError, ValueError):
    """Rules tags that do not make a start position (a bad variant or size)."""
