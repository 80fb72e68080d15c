"""The rules of each game in players' words (goal, a turn, scoring, special cards), and a one-line
explanation per special card, location and move, shown where they are offered (a page's hover or
tap, the terminal's `rules`). Written from `spec/games/<game>.md` and the rules references; shipped
as package data, one Markdown file per game and language (`<game>.<lang>.md`).

File format: `# Title`, then `## Section` blocks of text; the `## Help` section holds one line per
explained thing, `- key: text` (a card id, `loc-N`, or a move kind).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from p2ptarot.i18n import _, language

#: languages the rules are written in, the first being the fallback
LANGUAGES = ("en", "fr")


@dataclass(frozen=True)
class Rules:
    """One game's rules: its title, its sections in order (heading, text) and its help lines."""

    game: str
    title: str
    sections: tuple[tuple[str, str], ...]
    help: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        """The rules as a terminal prints them."""
        out = [_("== {title}: the rules ==").format(title=self.title)]
        for heading, body in self.sections:
            out += ["", f"-- {heading} --", body]
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "title": self.title,
                "sections": [list(s) for s in self.sections], "help": dict(self.help)}


def _parse(game: str, text: str) -> Rules:
    title = game
    helps: dict[str, str] = {}
    sections: list[tuple[str, str]] = []
    heading: str | None = None
    lines: list[str] = []

    def close() -> None:
        if heading is not None and heading.lower() != "help":
            sections.append((heading, " ".join(" ".join(lines).split())))
    for line in text.splitlines():
        if line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("## "):
            close()
            heading, lines = line[3:].strip(), []
        elif heading is not None and heading.lower() == "help" and line.startswith("- "):
            key, _, words = line[2:].partition(":")
            helps[key.strip()] = words.strip()
        elif line.strip():
            lines.append(line.strip())
    close()
    return Rules(game, title, tuple(sections), helps)


@lru_cache(maxsize=None)
def rules(game: str, lang: str = "en") -> Rules | None:
    """The rules of a game (its registered name) in `lang`, else in English; None if unwritten."""
    base = resources.files(__name__)
    found = [_parse(game, (base / f"{game}.{code}.md").read_text(encoding="utf-8"))
             for code in dict.fromkeys((lang, LANGUAGES[0]))
             if (base / f"{game}.{code}.md").is_file()]
    if not found:
        return None
    first = found[0]
    helps = {}
    for r in reversed(found):  # a help line not yet translated falls back on the English one
        helps.update(r.help)
    return Rules(first.game, first.title, first.sections, helps)


def explain(game: str, key: str | None, lang: str | None = None) -> str:
    """The one-line explanation of a card, location or move kind ('' when there is none), in
    `lang` (default: the interface's language). A card id falls back on its kind (a roses
    'divine-3' on 'divine', 'major-role-2' on 'major')."""
    r = rules(game, lang or language())
    if r is None or not key:
        return ""
    if key in r.help:
        return r.help[key]
    if game != "arcanum":  # roses: a divine or a major by its kind, a figure by its rank
        head, tail = key.split("-", 1)[0], key.rsplit("-", 1)[-1]
        for k in (head, tail):
            if k in r.help and k in ("divine", "major", "guardian", "god"):
                return r.help[k]
    return ""


__all__ = ["LANGUAGES", "Rules", "explain", "rules"]
