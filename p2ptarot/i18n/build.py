"""Re-extract every msgid of the front ends, merge them into each language's .po (new ids get an
empty translation, ids no longer used are dropped) and compile the .mo: ``python -m
p2ptarot.i18n.build`` (needs Babel, a test dependency). The test suite runs the same extraction
to prove the committed catalogue complete and its .mo current."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

from datetime import datetime, timezone

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from p2ptarot.i18n import DOMAIN, LANGUAGES

#: the catalogue's dates are fixed: rebuilding an unchanged catalogue changes no byte
FIXED_DATE = datetime(2026, 11, 26, tzinfo=timezone.utc)
PACKAGE = Path(__file__).resolve().parent.parent
#: the front ends' Python: the terminal, the app layer, the presenters, the web server; every
#: other package says what a player reads as messages (p2ptarot.i18n.message: `tr`, `ntr`)
PY_DIRS = ("cli", "app", "present", "web", "peer", "i18n")
PY_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
               "tr": None, "ntr": (1, 2)}
JS_KEYWORDS = {"t": None}
#: `{{Rules}}` in index.html: replaced by the translation when the page is served
HTML_MARK = re.compile(r"\{\{([^{}]+)\}\}")


def sources() -> list[Path]:
    files = [f for d in PY_DIRS for f in sorted((PACKAGE / d).rglob("*.py"))]
    files += [f for f in sorted(PACKAGE.rglob("*.py"))
              if f.relative_to(PACKAGE).parts[0] not in PY_DIRS and f not in files]
    static = PACKAGE / "web" / "static"
    return files + sorted(static.glob("*.js")) + sorted(static.rglob("*/*.js")) \
        + sorted(static.glob("*.html"))


Key = tuple  # (msgid, context): msgid a string, or (singular, plural) for ngettext


def extracted() -> dict[Key, list[tuple[str, int]]]:
    """(msgid, context) -> where it is used (file, line); context None but for pgettext."""
    found: dict[Key, list[tuple[str, int]]] = {}
    for path in sources():
        rel = str(path.relative_to(PACKAGE.parent))
        text = path.read_bytes()
        if path.suffix == ".html":
            for m in HTML_MARK.finditer(text.decode()):
                line = text.decode().count("\n", 0, m.start()) + 1
                found.setdefault((m.group(1), None), []).append((rel, line))
            continue
        method, keywords = ("python", PY_KEYWORDS) if path.suffix == ".py" else ("javascript", JS_KEYWORDS)
        for lineno, message, _comments, ctx in extract(method, io.BytesIO(text), keywords=keywords):
            msgid = message if isinstance(message, str) else tuple(message)
            if isinstance(msgid, tuple) and len(msgid) == 1:
                msgid = msgid[0]
            found.setdefault((msgid, ctx or None), []).append((rel, lineno))
    return found


def po_path(lang: str) -> Path:
    return PACKAGE / "i18n" / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def merge(lang: str) -> Catalog:
    old = read_catalog(lang)
    new = Catalog(locale=lang, domain=DOMAIN, project="p2ptarot", version=" ", fuzzy=False,
                  creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                  header_comment=f"# {lang} translations of the p2ptarot interface (python -m p2ptarot.i18n.build)")
    for (msgid, ctx), places in sorted(extracted().items(), key=lambda kv: kv[1][0]):
        was = old.get(msgid, context=ctx)
        empty: Any = ("", "") if isinstance(msgid, tuple) else ""
        kept = was is not None and isinstance(was.string, str) == isinstance(empty, str)
        new.add(msgid, was.string if was is not None and kept else empty, locations=places,
                context=ctx)
    return new


def main() -> int:
    for lang in LANGUAGES[1:]:
        catalog = merge(lang)
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, catalog, width=100, omit_header=False, sort_output=False,
                     include_lineno=False)
        path.with_suffix(".mo").write_bytes(compiled(catalog))
        missing = [m.id for m in catalog if m.id and not (m.string if isinstance(m.string, str)
                                                          else all(m.string or ("",)))]
        print(f"{lang}: {len(catalog)} messages, {len(missing)} untranslated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
