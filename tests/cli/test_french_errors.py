"""French complete (issue 33, item 7): one error of each kind a player can meet, provoked with
`--lang fr` — a usage error (argparse's own sentences), an engine refusal (a table the game's
rules refuse, a move the engine refuses), a network error (a table nobody listens at, as the HTTP
client and the operating system word it), a rule-language parse error and `verify`'s verdicts
on cheating transcripts — reads French: no word of the catalogue's English-only vocabulary.

Left out as identifiers, not words: the command's name (`p2ptarot host`), option names, a
message kind in a verdict's evidence (`move`, `coin.commit`), quoted values."""

from __future__ import annotations

import random
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2ptarot.engine import EngineError, RandomDealer, create
from p2ptarot.engine.types import TurnKind
from p2ptarot.games.arcanoid.moves import Discard
from p2ptarot.i18n import set_language
from p2ptarot.i18n.message import render as say
from p2ptarot.present.eleusis import PageMoveError, check_rule_text
from tests.i18n.test_french_games import _english_only, _words

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
#: English words of argparse, aiohttp and the operating system (not msgids of ours until now)
FOREIGN = {"usage", "error", "required", "following", "invalid", "value",
           "cannot", "connect", "connection", "failed", "call", "refused", "standard", "input",
           "closed", "choice", "choose", "from", "expected", "unrecognized"}
IDENTIFIERS = [re.compile(p) for p in (
    r"p2ptarot \w+",  # the command
    r"--[\w-]+",  # an option
    r"'[^']*'",  # a quoted value
    r"message [\w.]+",  # a message kind in a verdict's evidence
    r"«[^»]*»",  # a token of the rule language a rule error quotes
    r"\bint\b",  # the type argparse names (--seats int)
)]


def _english(text: str) -> set[str]:
    for pattern in IDENTIFIERS:
        text = pattern.sub(" ", text)
    return _words(text) & (_english_only() | FOREIGN)


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.PIPE)


@pytest.fixture
def french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language(None)


def test_a_usage_error_reads_french() -> None:
    done = _run("host", "--lang", "fr", "--game", "sinople", "--seats", "x")
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("p2ptarot host : erreur : ") and "invalide" in last, last
    assert not _english(last), last
    assert done.stderr.startswith("usage : ")
    missing = _run("host", "--lang", "fr")
    last = missing.stderr.strip().splitlines()[-1]
    assert "requis" in last and not _english(last), last
    helped = _run("host", "--lang", "fr", "--help")
    assert "affiche cette aide et quitte" in helped.stdout


def test_an_engine_refusal_reads_french(tmp_path: Path, french: None) -> None:
    done = _run("host", "--lang", "fr", "--game", "arcanoid", "--seats", "1", "--interface",
                "127.0.0.1", "--data-dir", str(tmp_path / "d"))
    assert done.returncode == 2
    assert "se joue de" in done.stderr and not _english(done.stderr), done.stderr
    # a move the engine refuses, as a verdict quotes it: a discard of a card not held
    state = create("arcanoid", 3)
    dealer = RandomDealer(random.Random(3))
    while state.turn().kind is not TurnKind.SEAT:
        chance = state.turn().chance
        if chance is None:
            state.resolve_reveals()
            continue
        state.resolve_chance(dealer.shuffle(state, chance) if hasattr(chance, "deck")
                             else dealer.choice(chance))
    seat = state.turn().seats[0]
    with pytest.raises(EngineError) as refused:
        state.apply(seat, Discard(10_000))
    said = say(refused.value)
    assert said != str(refused.value) and not _english(said), (str(refused.value), said)


def test_a_lower_layers_usage_error_reads_french() -> None:
    """`--interface` names no card: the network layer's refusal, as argparse reports it."""
    done = _run("host", "--lang", "fr", "--game", "sinople", "--seats", "3", "--interface",
                "nosuchcard0")
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert "n'est ni une adresse IP ni une carte réseau" in last, last
    assert not _english(last), last


def test_a_move_out_of_turn_reads_french(french: None) -> None:
    """The engine refuses a seat that acts out of turn (the reason a verdict would quote)."""
    state = create("arcanoid", 3)
    dealer = RandomDealer(random.Random(3))
    while state.turn().kind is not TurnKind.SEAT:
        chance = state.turn().chance
        if chance is None:
            state.resolve_reveals()
            continue
        state.resolve_chance(dealer.shuffle(state, chance) if hasattr(chance, "deck")
                             else dealer.choice(chance))
    waiting = state.turn().seats
    other = next(s for s in range(3) if s not in waiting)
    with pytest.raises(EngineError) as refused:
        state.apply(other, state.legal_moves(waiting[0])[0])
    said = say(refused.value)
    assert said != str(refused.value) and not _english(said), (str(refused.value), said)


def test_no_table_found_reads_french(tmp_path: Path) -> None:
    """A fingerprint nobody advertises (zeroconf bound to 127.0.0.1): the finder gives up."""
    done = _run("join", "--lang", "fr", "ABCD-EFGH", "--bot", "--find-timeout", "2",
                "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "d"))
    assert "aucune table ouverte par ABCD-EFGH" in done.stderr, done.stderr
    assert not _english(done.stderr), done.stderr


def test_a_network_error_reads_french(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port on 127.0.0.1 nobody listens at once it is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _run("join", "--lang", "fr", f"ws://127.0.0.1:{port}", "--bot", "--interface",
                "127.0.0.1", "--data-dir", str(tmp_path / "d"), "--timeout", "5")
    assert done.returncode != 0
    assert "impossible de se connecter" in done.stderr, done.stderr
    assert not _english(done.stderr), done.stderr


def test_a_rule_language_error_reads_french(french: None) -> None:
    for text in ("accept c.rank >", "accept c.rank == 1 $", "accept p4.rank == 1",
                 "accept c.rank < 3 < 4"):
        with pytest.raises(PageMoveError) as bad:
            check_rule_text(text)
        message = str(bad.value)
        assert message.startswith("règle invalide"), message
        assert not _english(message), message


@pytest.mark.parametrize("vector", ["invalid-illegal-move", "invalid-share-wrong-proof",
                                    "invalid-equivocation", "invalid-messages-swapped"])
def test_a_verify_verdict_reads_french(vector: str) -> None:
    done = _run("verify", "--lang", "fr", str(VECTORS / f"{vector}.jsonl"))
    assert done.stdout.startswith("INVALIDE"), done.stdout + done.stderr
    assert not _english(done.stdout + done.stderr), done.stdout
