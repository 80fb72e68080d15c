"""The message catalogue is complete and current: every msgid the front ends use (Python `_`,
`N_`, `pgettext`; the page's `t()`; index.html's `{{...}}`) has a French translation with the same
placeholders, the .po holds no stale id, and the committed .mo is the .po compiled (a fresh
clone needs no build step)."""

from __future__ import annotations

import re
from string import Formatter

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from p2ptarot.i18n import build
from p2ptarot.i18n import LANGUAGES, page_catalogue, translations

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in Formatter().parse(text) if name}


def test_every_msgid_is_extracted_translated_and_none_is_stale() -> None:
    used = build.extracted()
    assert len(used) > 300  # the terminal, the app layer, the presenters, the page
    for lang in LANGUAGES[1:]:
        catalog = build.read_catalog(lang)
        held = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context) for m in catalog if m.id}
        missing = sorted(map(str, set(used) - held))
        stale = sorted(map(str, held - set(used)))
        assert not missing, f"{lang}: not in the .po (python -m p2ptarot.i18n.build): {missing[:20]}"
        assert not stale, f"{lang}: no longer used (python -m p2ptarot.i18n.build): {stale[:20]}"
        untranslated = [m.id for m in catalog if m.id and not (
            m.string if isinstance(m.string, str) else all(m.string))]
        assert not untranslated, f"{lang}: untranslated: {untranslated[:20]}"
        assert not [m.id for m in catalog if m.id and m.fuzzy], f"{lang}: fuzzy entries"


def test_translations_keep_the_placeholders_of_their_msgid() -> None:
    for lang in LANGUAGES[1:]:
        for m in build.read_catalog(lang):
            if not m.id or not isinstance(m.id, str):
                continue
            assert _fields(m.string) == _fields(m.id), (lang, m.id, m.string)
            assert PLACEHOLDER.findall(m.string) or not PLACEHOLDER.findall(m.id), (lang, m.id)


def _messages(catalog: Catalog) -> dict[tuple[object, str | None], object]:
    """What a catalogue says, whoever wrote the file: (msgid, context) -> translation, for the
    translated, non-fuzzy messages (the ones compiled into a .mo), plus the plural rule."""
    said: dict[tuple[object, str | None], object] = {
        (m.id if isinstance(m.id, str) else tuple(m.id), m.context): (
            m.string if isinstance(m.string, str) else tuple(m.string))
        for m in catalog if m.id and not m.fuzzy and (
            m.string if isinstance(m.string, str) else any(m.string))}
    said[("", "plural forms")] = catalog.plural_forms
    return said


def test_the_committed_mo_says_what_the_po_says() -> None:
    """Compared by meaning, not bytes: the .mo's header names the Babel release that compiled it,
    and a release of Babel must not fail the suite (python -m p2ptarot.i18n.build rebuilds it)."""
    for lang in LANGUAGES[1:]:
        mo = build.po_path(lang).with_suffix(".mo")
        with mo.open("rb") as f:
            compiled = read_mo(f)
        po = _messages(build.read_catalog(lang))
        assert len(po) > 300
        assert _messages(compiled) == po, f"{mo} is stale: python -m p2ptarot.i18n.build"


def test_the_page_catalogue_is_the_compiled_one() -> None:
    fr = page_catalogue("fr")
    assert fr["Rules"] == "Règles" and fr["Play {card}"] == "Jouer {card}"
    assert fr == {k: v for k, v in translations("fr")._catalog.items() if isinstance(k, str) and k}
    assert page_catalogue("en") == {}  # English: the msgids themselves
