"""A library of valid rules of graded difficulty: rules §6.8's examples and variations of them.

The dealer bot picks from it, and the dealer's `legal_moves` offers it as the (partial) space of
`Commit` moves. Difficulty: 1 found at once … 5 hardly ever found (§3.3).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LibraryRule:
    name: str
    difficulty: int
    text: str


LIBRARY: tuple[LibraryRule, ...] = (
    # §6.8, from the source
    LibraryRule("colour differs", 1, "accept c.color != p1.color"),
    LibraryRule("prime alternation", 3, "accept c.prime != p1.prime"),
    LibraryRule("beginner 1", 2, "accept if p1.odd then c.color == black else c.color == red"),
    LibraryRule("beginner 2", 2,
                "accept if p1.color == black then c.rank >= p1.rank else c.rank <= p1.rank"),
    LibraryRule("beginner 3", 1, "accept c.suit == p1.suit or c.rank == p1.rank"),
    LibraryRule("too hard", 5, "accept\n  let m = prod(rank, last 3) % 4;\n"
                "  if m == 0 then c.color == red or c.rank > 6\n"
                "  else if m == 1 then c.color == black or c.face\n"
                "  else if m == 2 then c.even or c.rank < 6\n"
                "  else c.odd or c.rank == 10\n"),
    # §6.8, typical rules
    LibraryRule("suit cycle", 2, "accept c.suitnum == p1.suitnum % 4 + 1"),
    LibraryRule("higher unless face", 3, "accept if p1.face then not c.face else c.rank > p1.rank"),
    LibraryRule("within two, wrapping", 3, "accept (c.rank - p1.rank) % 13 in {1, 2, 11, 12}"),
    LibraryRule("at most two apart", 2, "accept abs(c.rank - p1.rank) <= 2"),
    LibraryRule("between last two", 4, "accept if n >= 2 then c.rank >= min(rank, last 2) and "
                "c.rank <= max(rank, last 2) else true"),
    LibraryRule("by position", 3,
                "accept if (n + 1) % 2 == 0 then c.color == red else c.color == black"),
    LibraryRule("even sum", 4, "accept n < 2 or (p1.rank + p2.rank + c.rank) % 2 == 0"),
    LibraryRule("progression", 5, "accept\n  if n >= 2 then (let d = p1.rank - p2.rank; "
                "c.rank - p1.rank == d)\n  else c.rank > p1.rank\n"),
    LibraryRule("not the suit of three ago", 4, "accept n >= 3 implies c.suit != p3.suit"),
    LibraryRule("ranks or hearts", 3, "accept c.rank in {1, 4, 9, 13} or c.suit == hearts"),
    # variations
    LibraryRule("parity alternates", 2, "accept c.odd != p1.odd"),
    LibraryRule("same colour", 1, "accept c.color == p1.color"),
    LibraryRule("face or same suit", 2, "accept c.face or c.suit == p1.suit"),
    LibraryRule("higher or equal, wrapping at king", 3,
                "accept if p1.rank == 13 then true else c.rank >= p1.rank"),
    LibraryRule("odd after even", 2, "accept p1.even implies c.odd"),
    LibraryRule("red ranks low, black high", 3,
                "accept if c.color == red then c.rank <= 7 else c.rank >= 7"),
    LibraryRule("suit differs, rank close", 3,
                "accept c.suit != p1.suit and abs(c.rank - p1.rank) <= 4"),
    LibraryRule("colours in pairs", 4, "accept if n >= 2 then (if p1.color == p2.color then "
                "c.color != p1.color else c.color == p1.color) else true"),
    LibraryRule("rank sum below 20", 4, "accept p1.rank + c.rank <= 20 and c.rank != p1.rank"),
)

BY_NAME: dict[str, LibraryRule] = {r.name: r for r in LIBRARY}
