"""Player-supplied text made safe to show and to sign: printable characters only.

A joiner chooses its own display name; it ends up in the charter (signed by every seat, hashed into
the table id) and on every peer's terminal. Control characters would let it rewrite a terminal
(ANSI escapes), bidi overrides disguise it, and a lone surrogate has no UTF-8 form at all (the
canonical encoder refuses it). `str.isprintable` rejects all three.
"""

from __future__ import annotations

MAX_NAME = 40
DEFAULT_NAME = "player"


def clean_name(raw: object, default: str = DEFAULT_NAME) -> str:
    """A display name from anything a peer sent: printable, single-spaced, at most 40 characters."""
    text = raw if isinstance(raw, str) else ""
    kept = "".join(ch for ch in text[: MAX_NAME * 8] if ch.isprintable())
    kept = " ".join(kept.split())[:MAX_NAME]
    return kept or default


def is_clean_name(text: str) -> bool:
    """True when `text` is already what `clean_name` would make of it."""
    return bool(text) and clean_name(text, "") == text


def printable(text: object, limit: int = 500) -> str:
    """Any text (a signed reason, a peer's error) for a terminal: line breaks become spaces, other
    non-printables '?'."""
    raw = (text if isinstance(text, str) else str(text))[:limit]
    if raw.isprintable():  # the common case, without a generator over every character
        return raw
    return "".join(ch if ch.isprintable() else " " if ch in "\n\t\r" else "?" for ch in raw)
