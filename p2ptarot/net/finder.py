"""Which table does `join` sit at? Only one the user named, or the only one there is.

A joiner must never sit at a stranger's table by accident (issue 17): with several open tables of
the wanted game on the LAN it asks which one (interactive) or refuses with the list. A target is
given as a `ws://` or `http://` URL, a `host:port` pair, or a host fingerprint (or table id)
prefix as `p2ptarot list` prints it. Browsing returns as soon as the answer is known (no fixed
sleep beyond a short settle to notice a second table of the same game).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable, Sequence

from p2ptarot import PROTOCOL_VERSION

from .wsmesh import WS_PATH
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # zeroconf is imported only when a table is looked for, not to dial ws://
    from .discovery import TableAdvert

#: after the first matching table appears, listen this long for others before deciding
SETTLE_SECONDS = 1.5
_HOST_PORT = re.compile(r"^\[?[A-Za-z0-9.:-]+\]?:\d{1,5}$")
_FINGERPRINT = re.compile(r"^[A-Za-z2-7]{1,4}(-[A-Za-z2-7]{0,4}){0,3}$|^[0-9a-f]{4,64}$")

Pick = Callable[[list["TableAdvert"]], Awaitable["TableAdvert | None"]]


class FindError(Exception):
    """No table could be chosen (the message is a sentence for the user)."""


@dataclass(frozen=True)
class Target:
    """What the user named: an address to dial directly, or a fingerprint/table-id prefix."""

    url: str | None = None
    prefix: str | None = None


def parse_target(text: str | None) -> Target:
    """`ws://h:p[/p2ptarot]`, `http://h:p`, `h:p`, `nostr:<key>` (an online host), or a
    fingerprint/table-id prefix; None: any."""
    if text is None or not text.strip():
        return Target()
    text = text.strip()
    if re.fullmatch(r"nostr:[0-9a-f]{64}", text):  # an online seat (an invitation code resolved)
        return Target(url=text)
    for scheme in ("ws://", "http://"):
        if text.lower().startswith(scheme):
            rest = text[len(scheme):].rstrip("/")
            if rest.endswith(WS_PATH):
                rest = rest[: -len(WS_PATH)]
            if not _HOST_PORT.match(rest):
                raise FindError(tr("{text} is not an address of the form {scheme}HOST:PORT",
                                   text=repr(text), scheme=scheme))
            return Target(url=f"ws://{rest}{WS_PATH}")
    if text.lower().startswith(("https://", "wss://")):
        raise FindError(tr("p2ptarot tables speak plain ws:// on the LAN; give ws://HOST:PORT"))
    if _HOST_PORT.match(text) and not _FINGERPRINT.match(text):
        return Target(url=f"ws://{text}{WS_PATH}")
    if not _FINGERPRINT.match(text):
        raise FindError(tr("{text} is neither ws://HOST:PORT, HOST:PORT, nor a fingerprint or table "
                           "id from `p2ptarot list`", text=repr(text)))
    return Target(prefix=text)


def matches_prefix(advert: TableAdvert, prefix: str) -> bool:
    t = advert.table
    return t.fingerprint.startswith(prefix.upper()) or (bool(t.table_id) and t.table_id.startswith(prefix.lower()))


def matches_table_id_only(prefix: str) -> bool:
    """A lowercase-hex prefix names a table id, not a host key (nothing to check at the dial)."""
    return bool(re.fullmatch(r"[0-9a-f]{4,64}", prefix))


def describe(advert: TableAdvert) -> str:
    t = advert.table
    variant = f" {t.variant}" if t.variant else ""
    by = f"{t.host_name} ({t.fingerprint})" if t.host_name else t.fingerprint
    return (f"{t.game}{variant}, seats {t.seats_taken}/{t.seats_total}, host {by}, "
            f"{advert.ws_url}")


def decide(adverts: Sequence[TableAdvert], game: str | None, prefix: str | None
           ) -> tuple[list[TableAdvert], list[TableAdvert]]:
    """(open candidates, full candidates) among the adverts matching the game and the prefix."""
    fitting = [a for a in adverts if a.table.version == PROTOCOL_VERSION
               and (game is None or a.table.game == game)
               and (prefix is None or matches_prefix(a, prefix))]
    return [a for a in fitting if not a.table.is_full], [a for a in fitting if a.table.is_full]


async def find_table(interfaces: Sequence[str] | None, game: str | None, prefix: str | None,
                     wait: float = 30.0, pick: Pick | None = None,
                     settle: float = SETTLE_SECONDS) -> str:
    """The ws:// URL of the table to join.

    With a prefix: the first open table it names (a full one is reported at once). Without: the
    only open table of `game`; with several, `pick` chooses (interactive) or `FindError` lists
    them. `FindError` also when nothing fits within `wait` seconds.
    """
    from .discovery import TableBrowser  # local: zeroconf only for a peer that browses

    deadline = time.monotonic() + wait
    first_seen: float | None = None
    async with TableBrowser(interfaces=interfaces) as browser:
        while True:
            open_, full = decide(list(browser.tables.values()), game, prefix)
            now = time.monotonic()
            if prefix is not None:
                if open_:
                    return open_[0].ws_url
                if full:
                    raise FindError(tr("the table of {fingerprint} is full ({taken}/{total} seats)",
                                       fingerprint=full[0].table.fingerprint,
                                       taken=full[0].table.seats_taken,
                                       total=full[0].table.seats_total))
            elif open_:
                first_seen = first_seen or now
                if now - first_seen >= settle:
                    return await _choose(sorted(open_, key=lambda a: a.name), game, pick)
            if now >= deadline:
                raise FindError(_nothing_seen(game, prefix, format(wait, ".0f")))
            await asyncio.sleep(0.05)


async def _choose(candidates: list[TableAdvert], game: str | None, pick: Pick | None) -> str:
    if len(candidates) == 1:
        return candidates[0].ws_url
    if pick is not None:
        chosen = await pick(candidates)
        if chosen is None:
            raise FindError(tr("no table chosen"))
        return chosen.ws_url
    listing = "\n".join(f"  {describe(a)}" for a in candidates)
    if game:
        raise FindError(tr("{count} open {game} tables on the LAN; name the one to join (join "
                           "FINGERPRINT or join ws://HOST:PORT):\n{listing}",
                           count=len(candidates), game=game, listing=listing))
    raise FindError(tr("{count} open tables on the LAN; name the one to join (join FINGERPRINT or "
                       "join ws://HOST:PORT):\n{listing}", count=len(candidates), listing=listing))


def _nothing_seen(game: str | None, host: str | None, wait: str) -> str:
    """Why no table was found, for the optional game and host asked for."""
    if game and host:
        return tr("no open {game} table hosted by {host} seen on the LAN within {wait} s (is the "
                  "host running, and on this network?)", game=game, host=host, wait=wait)
    if host:
        return tr("no open table hosted by {host} seen on the LAN within {wait} s (is the host "
                  "running, and on this network?)", host=host, wait=wait)
    if game:
        return tr("no open {game} table seen on the LAN within {wait} s (is the host running, "
                  "and on this network?)", game=game, wait=wait)
    return tr("no open table seen on the LAN within {wait} s (is the host running, and on this "
              "network?)", wait=wait)
