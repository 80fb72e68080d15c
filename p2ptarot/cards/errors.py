"""Errors raised by card and deck look-ups.

Card ids arrive from the wire, so an unknown id is an ordinary, expected failure that callers
must be able to catch and blame precisely; both errors subclass ``ValueError``/``KeyError`` so
generic handlers still work.
"""

from __future__ import annotations


class CardError(ValueError):
    """Base class for every error of :mod:`p2ptarot.cards`."""


class UnknownCardError(CardError):
    """A string is not a valid card id of the vocabulary (deck or naming) it was checked against."""

    def __init__(self, card_id: object, vocabulary: str) -> None:
        self.card_id = card_id
        self.vocabulary = vocabulary
        super().__init__(f"unknown card id {card_id!r} for {vocabulary}")


class UnknownDeckError(CardError, KeyError):
    """No deck is registered under the requested name."""

    def __init__(self, name: object, known: tuple[str, ...]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown deck {name!r}; known decks: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return str(self.args[0])
