"""English sentences made below the front ends, in the interface's language.

The engine, the rule language (ERL), the table and the network layers are sans-I/O and
language-free: their exceptions, abort reasons and last events are English sentences, kept
English in logs and transcripts (an abort reason is signed on the wire and read by every peer).
What a player reads goes through `say`: the sentence is matched against the templates below
(each one the English wording of a raise site, its variable parts as ``{fields}``), and the
template's translation is filled with the fields, each one said again (a nested reason, a
token's description, a type name). A sentence no template matches is shown as it came;
`tests/i18n/test_reasons.py` checks that every message the rule language, the finders and
the room raise has a template.
"""

from __future__ import annotations

import re
from functools import lru_cache
from string import Formatter

from p2ptarot.i18n import N_, _, language

#: the sentences, by the layer that makes them (the order does not matter: the template with
#: the most literal text wins a tie)
TEMPLATES: tuple[str, ...] = (
    # the rule language (games/eleusis/erl): lexer, parser, checker, hints
    N_("line {line}, column {column}: {message}"),
    N_("a rule is a text"),
    N_("the rule text is longer than {max} bytes"),
    N_("the rule text must be ASCII"),
    N_("the rule text is {size} bytes, more than {max}"),
    N_("a number may not run into a name: {text}"),
    N_("integer {digits} is larger than {max}"),
    N_("names use lower-case letters, digits and '_' only"),
    N_("name {name}… is longer than {max} characters"),
    N_("lines end with LF; carriage returns are not allowed"),
    N_("unexpected character {char} (names are lower-case)"),
    N_("unexpected character {char}"),
    N_("expected {what}, found {found}"),
    N_("the rule nests more than {max} levels deep"),
    N_("comparisons do not chain; combine them with 'and'"),
    N_("'{word}' inside an operator must be in parentheses"),
    N_("unexpected {found} after a complete expression"),
    N_("'{name}' is a reserved word and cannot be a let name"),
    N_("expected a name after 'let', found {found}"),
    N_("'{name}' is not a card: the cards are c, p1, p2 and p3"),
    N_("expected a value, found {found}"),
    N_("'{word}' is an attribute: write it after a card, as in c.{word}"),
    N_("a card is used through an attribute: write {card}.rank, {card}.suit, …"),
    N_("expected an attribute ({attributes}), found {found}"),
    N_("{function} takes 'rank' or 'suitnum', found {found}"),
    N_("the window after 'last' is 1, 2 or 3, found {found}"),
    N_("the rule has {count} syntax-tree nodes, more than {max}"),
    N_("the rule nests {height} levels deep, more than {max}"),
    N_("{role} must be {expected}, not {got}"),
    N_("name '{name}' is not bound by an enclosing let"),
    N_("{card} may not exist here: guard it with n >= {need} (the main line may hold only {bound} card)"),
    N_("{card} may not exist here: guard it with n >= {need} (the main line may hold only {bound} cards)"),
    N_("'{op}' compares {left} with {right}"),
    N_("'{op}' orders ints only, not {got}"),
    N_("the rule's sets hold more than {max} elements"),
    N_("a set element must be {expected} like the value tested, not {got}"),
    N_("the branches of 'if' differ: {then} and {orelse}"),
    N_("the rule has more than {max} let bindings"),
    N_("name '{name}' is already bound here"),
    N_("the rule after 'accept' must be a bool, not {got}"),
    N_("unknown structured hint {hint} (known: {known})"),
    N_("the end of the rule"), N_("number {n}"), N_("name '{name}'"),
    N_("an int"), N_("a bool"), N_("a suit"), N_("a colour"),
    N_("an 'if' condition"), N_("an arithmetic operand"), N_("an operand of 'and'"),
    N_("an operand of 'or'"), N_("the left side of 'implies'"), N_("the operand of 'not'"),
    N_("the operand of '{op}'"),
    # Eleusis' last events (games/eleusis/state.py)
    N_("the Sage calls {verdict}"), N_("{who} declares \"no play\""), N_("{who} plays {cards}"),
    N_("the dealer says {verdict}"), N_("the dealer answers {answer}"), N_("the Sage names {card}"),
    N_("{who} is a false prophet"), N_("{who} is eliminated"), N_("{who} declares himself Sage"),
    N_("right"), N_("wrong"), N_("yes"), N_("no"),
    # finding and joining a table (net/finder.py, net/online/finder.py, net/transport.py, room)
    N_("{text} is not an address of the form {scheme}HOST:PORT"),
    N_("p2ptarot tables speak plain ws:// on the LAN; give ws://HOST:PORT"),
    N_("{text} is neither ws://HOST:PORT, HOST:PORT, nor a fingerprint or table id from `p2ptarot list`"),
    N_("the table of {fingerprint} is full ({taken}/{total} seats)"),
    N_("no open {game} table hosted by {host} seen on the LAN within {wait} s "
       "(is the host running, and on this network?)"),
    N_("no open table hosted by {host} seen on the LAN within {wait} s "
       "(is the host running, and on this network?)"),
    N_("no open {game} table seen on the LAN within {wait} s (is the host running, and on this network?)"),
    N_("no open table seen on the LAN within {wait} s (is the host running, and on this network?)"),
    N_("no table chosen"),
    N_("{count} open {game} tables on the LAN; name the one to join "
       "(join FINGERPRINT or join ws://HOST:PORT):\n{listing}"),
    N_("{count} open tables on the LAN; name the one to join "
       "(join FINGERPRINT or join ws://HOST:PORT):\n{listing}"),
    N_("{count} different hosts advertise the code {code}: someone is impersonating the table; "
       "ask the host for their fingerprint"),
    N_("cannot connect to {url}: {why}"),
    N_("connected to itself"), N_("unexpected peer key"), N_("not a member of this table"),
    N_("handshake timed out"), N_("connection lost in handshake: {why}"), N_("closed by peer"),
    N_("connection closed in handshake"), N_("link closed during the handshake"),
    N_("link lost in the handshake: {why}"), N_("bad signature"),
    N_("binary frame in handshake"), N_("handshake frame too large"),
    N_("protocol version {theirs} not supported (this peer speaks {ours})"),
    N_("{address} is not an online seat address (nostr:<key>)"), N_("that address is this peer's own"),
    N_("{game} needs {low} to {high} players; {count} ready"),
    # the engine's registry: a game, its variant, its options (engine/registry.py)
    N_("unknown game {name} (known: {known})"),
    N_("{game} is played by {low} to {high} players, not {count}"),
    N_("{game} has no option {name} (options: {accepted})"),
    N_("{game} option {name} must be of type {kind}, not {got}"),
    N_("{game} option {name} must be one of {choices} at {count} players, not {got}"),
    N_("{game} option {name} must be in {low}..{high} at {count} players, not {got}"),
    N_("{game} has no variants (got {name})"),
    N_("{game} has no variant {name} (variants: {known})"),
    N_("{game} variant {name} is {status}, not built yet (playable: {known})"),
    # why a game stopped with nobody to blame (table/session.py, table/evidence.py)
    N_("abandoned: {what} waited past the table's limit, waiting on {who} since {since}; "
       "silence convicts nobody"),
    N_("abandoned: {what} waited past the table's limit, waiting on {who}; silence convicts nobody"),
    N_("abandoned: {what} cannot complete: {who}'s message chains to another history than this "
       "seat's (some seat showed peers different messages, and both versions never reached this "
       "seat); nobody is convicted"),
    N_("{who} stopped the game at step {step}, accusing {accused}: {reason}; the evidence it "
       "carried proves nothing to this seat's own checks, so nobody is convicted"),
    N_("the game ended void (no outcome) and its audit proved no seat at fault"),
    N_("step {step} ({label})"), N_("nobody"), N_("left the table"),
    N_("illegal: {reason} ({where})"), N_("illegal: {reason}"),
    N_("rejected by the rules engine: {reason}"),
    N_("equivocation: two signed messages for step {step}"),
)

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(template: str) -> re.Pattern[str]:
    parts, seen, pos = [], set(), 0
    for m in _FIELD.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.DOTALL)


@lru_cache(maxsize=None)
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The templates, the most literal first (a tie goes to the more specific wording)."""
    def literal(t: str) -> int:
        return sum(len(lit) for lit, *_rest in Formatter().parse(t))
    unique = dict.fromkeys(TEMPLATES)
    return tuple((t, _pattern(t)) for t in sorted(unique, key=literal, reverse=True))


def template_of(text: str) -> tuple[str, dict[str, str]] | None:
    """The template `text` was made from and its fields, or None."""
    for template, pattern in _compiled():
        m = pattern.fullmatch(text)
        if m:
            return template, m.groupdict()
    return None


def say(text: object, depth: int = 0) -> str:
    """`text` (an English sentence from below the front ends) in the interface's language; as it
    came when it is English already or no template matches."""
    if isinstance(text, BaseException) and len(text.args) == 1 and isinstance(text.args[0], str):
        text = text.args[0]  # a KeyError's str() would quote it
    sentence = str(text)
    if language() == "en" or depth > 4 or len(sentence) > 2000:
        return sentence
    found = template_of(sentence)
    if found is None:
        return sentence
    template, fields = found
    said = {k: say(v, depth + 1) for k, v in fields.items()}
    try:
        return _(template).format(**said)
    except (KeyError, IndexError, ValueError):  # a translation that lost a field: the English
        return sentence


__all__ = ["TEMPLATES", "say", "template_of"]
