"""Sentences made below the front ends: a message id and its fields, said in any language.

The engine, the rule language, the table, the network layers and the verifier are language-free:
what they raise or return for a player to read is a `Message` — an English msgid of the gettext
catalogue (``"unknown game {name} (known: {known})"``) and the fields that fill it. A `Message`
*is* its English sentence (a ``str`` subclass): logs, transcripts, abort reasons signed on the
wire and the protocol vectors keep exactly the text they always had, rendered from the same id.
A front end says it in the player's language with `render`, which also renders every field that
is itself a message (a nested reason) or an error carrying one.

Raise sites write ``tr("card {h} is not {c}", h=h, c=c)`` (a literal id: the catalogue build
extracts it) and ``ntr("{n} card", "{n} cards", n, n=n)`` where a count chooses the plural form.
"""

from __future__ import annotations

import errno as _errno
from typing import Any, Mapping

from p2ptarot.i18n import N_, language, translations

__all__ = ["Message", "joined", "ntr", "render", "tr"]


class Message(str):
    """An English sentence that remembers how it was made: `id` (the msgid, or the singular of a
    plural pair), `plural` and its count `n`, and the `fields` that fill it."""

    id: str
    plural: str | None
    n: int | None
    fields: Mapping[str, Any]

    def __new__(cls, id: str, fields: Mapping[str, Any] | None = None, *,
                plural: str | None = None, n: int | None = None) -> "Message":
        values = dict(fields or {})
        template = plural if plural is not None and n != 1 else id
        self = super().__new__(cls, template.format(**values))
        self.id, self.plural, self.n, self.fields = id, plural, n, values
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (and copies) as a message, not a str
        return (_rebuild, (self.id, self.fields, self.plural, self.n))

    def render(self, lang: str | None = None) -> str:
        """This sentence in `lang` (None: the interface's language); English is the str itself."""
        lang = lang or language()
        if lang == "en":
            return str.__str__(self)
        cat = translations(lang)
        template = cat.ngettext(self.id, self.plural, self.n or 0) if self.plural is not None \
            else cat.gettext(self.id)
        said = {k: _said(v, lang) for k, v in self.fields.items()}
        try:
            return template.format(**said)
        except (KeyError, IndexError, ValueError):  # a translation that lost a field: English
            return str.__str__(self)


def _rebuild(id: str, fields: Mapping[str, Any], plural: str | None, n: int | None) -> Message:
    return Message(id, fields, plural=plural, n=n)


def tr(id: str, /, **fields: Any) -> Message:
    """The message `id` (a literal English msgid with ``{field}`` places) filled by `fields`."""
    return Message(id, fields)


def ntr(singular: str, plural: str, n: int, /, **fields: Any) -> Message:
    """A message whose wording depends on the count `n` (gettext plural forms)."""
    return Message(singular, fields, plural=plural, n=n)


#: what the operating system says when a connection fails (OSError.strerror), by errno
_OS_WORDS = {
    _errno.ECONNREFUSED: N_("Connection refused"),
    _errno.ECONNRESET: N_("Connection reset by peer"),
    _errno.ETIMEDOUT: N_("Connection timed out"),
    _errno.ENETUNREACH: N_("Network is unreachable"),
    _errno.EHOSTUNREACH: N_("No route to host"),
    _errno.ECONNABORTED: N_("Software caused connection abort"),
    _errno.EADDRINUSE: N_("Address already in use"),
    _errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    _errno.ENOENT: N_("No such file or directory"),
    _errno.EACCES: N_("Permission denied"),
    _errno.EISDIR: N_("Is a directory"),
}


def _os_error(exc: OSError, lang: str) -> str | None:
    """An operating system error in `lang` by its errno (its own English text otherwise)."""
    code = exc.errno
    inner = getattr(exc, "os_error", None)  # aiohttp's ClientConnectorError wraps the OSError
    if isinstance(inner, OSError) and inner.errno in _OS_WORDS:
        code = inner.errno
    if code not in _OS_WORDS:
        return None
    return translations(lang).gettext(_OS_WORDS[code])


def _said(value: Any, lang: str) -> Any:
    if isinstance(value, (Message, BaseException)):
        return render(value, lang)
    return value


def render(what: object, lang: str | None = None) -> str:
    """What a lower layer said — a `Message`, an error carrying one (its only argument, or its
    `message`), an operating system error — in `lang` (None: the interface's language). Any other
    text is shown as it came: it was never a sentence of ours (a peer's own words, a library's)."""
    lang = lang or language()
    if isinstance(what, Message):
        return what.render(lang)
    if isinstance(what, BaseException):
        args = what.args
        if len(args) == 1 and isinstance(args[0], Message):
            return args[0].render(lang)
        said = getattr(what, "message", None)
        if isinstance(said, Message) and str(said) == str(what):
            return said.render(lang)
        if isinstance(what, OSError) and lang != "en":
            word = _os_error(what, lang)
            if word is not None:
                return word
        if len(args) == 1 and isinstance(args[0], str):
            return args[0]  # a KeyError's str() would quote it
    return str(what)


def joined(items: list[Any]) -> Any:
    """Sentences said one after another, separated by semicolons ("" for none)."""
    if not items:
        return ""
    out = items[0]
    for item in items[1:]:
        out = tr("{first}; {then}", first=out, then=item)
    return out
