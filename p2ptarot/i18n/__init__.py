"""The interface's languages: one gettext catalogue for both front ends (spec/APP.md, "Languages").

English is the source language: every user-visible string of the terminal, the presenters, the
app layer and the page is an English msgid, wrapped where it is used:

* Python: ``_("{name} is back").format(name=...)`` -- never an f-string inside ``_()`` (the msgid
  must be a literal); a string defined at import time (a table of headings) is marked with
  ``N_("...")`` and translated where it is shown, ``_(HEADINGS[kind])``.
* the page's scripts: ``t("{name} is back", {name: ...})``; ``index.html``: ``{{Rules}}``.

`p2ptarot/i18n/locale/<lang>/LC_MESSAGES/p2ptarot.po` holds the translations and its compiled
``.mo`` is committed next to it (a fresh clone works without a build step); ``python -m
p2ptarot.i18n.build`` re-extracts every msgid, merges the .po and compiles the .mo (Babel).

The process has one language (`set_language`: the command's ``--lang``, else the system's
locale); the page's own strings follow the page's language (`page_language`), its catalogue is
sent inline with the page (`page_catalogue`).
"""

from __future__ import annotations

import gettext
import os
from functools import lru_cache
from importlib import resources
from typing import Mapping

#: the interface's languages, the first being the source (English msgids) and the fallback
LANGUAGES = ("en", "fr")
DOMAIN = "p2ptarot"

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def locale_dir() -> str:
    return str(resources.files(__package__) / "locale")


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang` (English: the msgids themselves)."""
    if lang not in LANGUAGES[1:]:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, locale_dir(), languages=[lang])


def normalize(value: str | None) -> str | None:
    """'fr' for 'fr_FR.UTF-8', 'fr-CA', 'FR'; 'en' for any English; None for the rest."""
    if not value:
        return None
    code = value.strip().replace("-", "_").split("_", 1)[0].split(".", 1)[0].lower()
    return code if code in LANGUAGES else None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the locale variables, in POSIX order (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG: the first one set decides); English when it is none of ours."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            first = value.split(":", 1)[0]
            return normalize(first) or "en"
    return "en"


def accept_language(header: str | None) -> str | None:
    """The best of our languages in an HTTP Accept-Language header ('fr-FR,fr;q=0.9,en;q=0.8'),
    by its q values; None when it names none of them (or is unreadable)."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((header or "")[:1000].split(",")):
        fields = part.strip().split(";")
        lang = normalize(fields[0])
        q = 1.0
        for f in fields[1:]:
            key, _sep, value = f.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if lang and q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, lang)
    return best[2] if best else None


def set_language(lang: str | None) -> str:
    """Use `lang` for every string from now on (None: the system's); returns the language."""
    global _current, _lang
    _lang = (normalize(lang) or "en") if lang else system_language()
    _current = translations(_lang)
    return _lang


def language() -> str:
    return _lang


def _(message: str) -> str:
    """`message` (an English msgid) in the process's language."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in a context: the same English word said differently (a 52-card queen is a
    "dame", a tarot queen a "reine")."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a msgid defined before the language is known; translate it with `_` where shown."""
    return message


def page_catalogue(lang: str) -> dict[str, str]:
    """msgid -> translation for the page's scripts (empty for English: the msgids themselves)."""
    cat = getattr(translations(lang), "_catalog", {})  # gettext keeps the parsed .mo here
    return {k: v for k, v in cat.items() if isinstance(k, str) and k}


__all__ = ["LANGUAGES", "N_", "_", "accept_language", "language", "ngettext", "normalize",
           "page_catalogue", "pgettext", "set_language", "system_language", "translations"]
