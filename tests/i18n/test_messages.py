"""Sentences made below the front ends (the rule language's errors, the engine's refusals and
registry, the finders, the handshake, abort reasons, verdicts, Eleusis' last events) are messages
(`p2ptarot.i18n.message`): an id of the catalogue and its fields. Every id has its French
translation with the same fields, every raise site a player may read passes a message (never an
English sentence a front end would have to parse back), and `render` says it in the player's
language while the English rendering stays the very text the wire and the vectors hold."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from string import Formatter

import pytest

from p2ptarot import i18n
from p2ptarot.games.eleusis.erl import ErlError, compile_rule
from p2ptarot.i18n import build, translations
from p2ptarot.i18n.message import Message, ntr, render, tr

PACKAGE = Path(i18n.__file__).resolve().parent.parent

#: (files, the callables whose argument is a sentence, that argument's position)
RAISERS = [
    ("games/eleusis/erl/*.py", {"ErlError": 0, "error": 0, "_err": 1}),
    ("engine/registry.py", {"BadConfiguration": 0, "UnknownGame": 0}),
    ("table/room.py", {"RoomError": 0}),
    ("net/*.py", {"HandshakeError": 1, "ConnectError": 0}),
    ("net/online/mesh.py", {"HandshakeError": 1, "ConnectError": 0}),
    ("net/online/finder.py", {"CodeClash": 0}),
    # a move's reason in a cheating verdict: every engine's refusals and false claims
    ("engine/*.py", {"IllegalMove": 1, "_false_claim": 1, "_record_finding": 2}),
    ("games/*/*.py", {"IllegalMove": 1, "_bad": 2, "_fail": 1, "_false_claim": 1,
                      "_record_finding": 2, "inconsistency": 0}),
    ("games/*/*/*.py", {"IllegalMove": 1}),
    # a seat's protocol violation
    ("table/*.py", {"Violation": 1}),
    # `p2ptarot verify`'s verdicts, an unreadable transcript, unusable online settings
    ("transcript/*.py", {"TranscriptError": 0, "_broken": 2, "_incomplete": 2, "Verdict": "reason"}),
    ("peer/store.py", {"TranscriptError": 0}),
    ("table/*.py", {"EnvelopeError": 0, "CanonicalError": 0}),
    ("net/online/config.py", {"OnlineConfigError": 0}),
    # the page's refused commands ("bad command: …")
    ("app/events.py", {"ValueError": 0}),
    # the deck protocol's and the proofs' faults inside a verdict, the messages a table drops
    ("mental/*.py", {"MentalViolation": 1, "MessageDecodeError": 0}),
    ("crypto/*.py", {"ProofError": 0, "CommitmentError": 0, "InvalidEncoding": 0}),
    ("table/intake.py", {"Taken": "notice"}), ("table/session.py", {"Notice": 0}),
]
#: functions whose returned sentences become a move's reason (arcanoïd's composition checks)
RETURNERS = [("games/arcanoid/rules.py", "composition_error"), ("games/arcanoid/secret.py", "composition_error"),
             ("games/arcanoid/secret.py", "decide"), ("games/arcanoid/variants/worms.py", "_content_error")]
#: raise sites that only code reads (a caller's bug, never a player's doing)
INTERNAL = {"an omniscient state has no viewer seat", "viewer seat {x} out of range"}


def _is_message(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "ntr")


def _english(node: ast.AST) -> str | None:
    """The English sentence an argument spells out itself (a literal, an f-string, a sum of
    them), or None when it is a message or a value made elsewhere."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{x}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _english(node.left) or _english(node.right)
    if isinstance(node, ast.IfExp):
        return _english(node.body) or _english(node.orelse)
    return None


def _sites() -> list[tuple[str, ast.AST]]:
    out = []
    for pattern, calls in RAISERS:
        for path in sorted(PACKAGE.glob(pattern)):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                where = calls.get(name) if name else None
                if isinstance(where, str):  # a keyword argument
                    arg = next((k.value for k in node.keywords if k.arg == where), None)
                else:
                    arg = node.args[where] if where is not None and len(node.args) > where else None
                if arg is not None:
                    out.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", arg))
    for pattern, function in RETURNERS:
        for path in sorted(PACKAGE.glob(pattern)):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and node.name == function:
                    for ret in ast.walk(node):
                        if isinstance(ret, ast.Return) and ret.value is not None:
                            out.append((f"{path.relative_to(PACKAGE)}:{ret.lineno}", ret.value))
    return out


def test_every_sentence_a_player_may_read_is_a_message() -> None:
    sites = _sites()
    messages = [where for where, arg in sites if _is_message(arg)]
    assert len(messages) > 280  # the rule language alone raises some forty, the engines some 200
    english = [(where, text) for where, arg in sites
               if not _is_message(arg) and (text := _english(arg)) and text not in INTERNAL]
    assert not english, english


def _calls() -> list[tuple[str, ast.Call]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if _is_message(node):
                out.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", node))
    return out


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in Formatter().parse(text) if name}


def test_every_message_id_is_a_literal_with_both_translations() -> None:
    """English is the id itself; French must be in the .po (python -m p2ptarot.i18n.build), with
    the id's fields, in every plural form: an id without both fails here."""
    calls = _calls()
    assert len(calls) > 400
    catalog = build.read_catalog("fr")
    for where, call in calls:
        ids = call.args[:2] if getattr(call.func, "id", None) == "ntr" else call.args[:1]
        assert ids and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in ids), \
            f"{where}: a message id is a literal"
        msgid = ids[0].value if len(ids) == 1 else (ids[0].value, ids[1].value)
        entry = catalog.get(msgid)
        assert entry is not None, f"{where}: {msgid!r} is not in the French catalogue"
        said = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        assert said and all(said), f"{where}: {msgid!r} has no French translation"
        names = {k.arg for k in call.keywords}
        for english in ([msgid] if isinstance(msgid, str) else list(msgid)):
            assert _fields(english) == names, f"{where}: fields {names} for {english!r}"
        for french in said:
            assert _fields(french) <= names, f"{where}: {french!r}"
    assert translations("fr").gettext("unknown game {name} (known: {known})") != \
        "unknown game {name} (known: {known})"


def test_a_message_is_its_english_sentence_and_renders_in_french() -> None:
    reason = tr("card {h} is not available as {c}", h=3, c="clubs-7")
    where = tr("round {round}, trick {trick}", round=2, trick=5)
    said = tr("seat {seat}: {reason} ({where})", seat=1, reason=reason, where=where)
    assert said == "seat 1: card 3 is not available as clubs-7 (round 2, trick 5)"  # the signed English text
    assert isinstance(said, str) and said.id == "seat {seat}: {reason} ({where})"
    french = render(said, "fr")
    assert "clubs-7" in french and "card 3" not in french and "round" not in french, french
    assert render(said, "en") == said
    again = pickle.loads(pickle.dumps(said))
    assert isinstance(again, Message) and render(again, "fr") == french
    err = ValueError(said)
    assert render(err, "fr") == french  # an error carrying a message
    assert render("a peer's own words", "fr") == "a peer's own words"  # never a sentence of ours


def test_plural_forms_follow_the_count() -> None:
    one = ntr("{card} may not exist here: guard it with n >= {need} (the main line may hold only "
              "{bound} card)", "{card} may not exist here: guard it with n >= {need} (the main "
              "line may hold only {bound} cards)", 1, card="p2", need=2, bound=1)
    two = ntr("{card} may not exist here: guard it with n >= {need} (the main line may hold only "
              "{bound} card)", "{card} may not exist here: guard it with n >= {need} (the main "
              "line may hold only {bound} cards)", 2, card="p3", need=3, bound=2)
    assert one.endswith("only 1 card)") and two.endswith("only 2 cards)")
    assert render(one, "fr").endswith("que 1 carte)") and render(two, "fr").endswith("que 2 cartes)")


def test_an_operating_system_error_reads_french() -> None:
    assert render(ConnectionRefusedError(111, "Connection refused"), "fr") == "connexion refusée"


def _erl_error(text: str) -> ErlError:
    with pytest.raises(ErlError) as info:
        compile_rule(text)
    return info.value


@pytest.fixture
def french():
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def test_a_rule_error_reads_in_french(french: None) -> None:
    from p2ptarot.present.eleusis import error_lines

    err = _erl_error("accept c.rank >\n")
    assert render(err.message) == "une valeur est attendue ici ; trouvé : la fin de la règle"
    lines = error_lines("accept c.rank >\n", err)
    assert lines[0] == ("  règle invalide : une valeur est attendue ici ; trouvé : la fin de la "
                        "règle (ligne 2, colonne 1)")
    assert render(_erl_error("accept c.rank == p1.suit\n").message) == \
        "« == » compare un entier avec une enseigne"
    assert render(_erl_error("accept c.rank == p2.rank\n").message) == (
        "p2 peut ne pas exister ici : protégez-la par n >= 2 (la ligne principale peut n'avoir "
        "que 1 carte)")
    assert render(_erl_error("accept Q\n").message) == \
        "caractère inattendu 'Q' (les noms sont en minuscules)"


def test_abort_reasons_and_events_read_in_french(french: None) -> None:
    from p2ptarot.engine import UnknownGame, info

    what = tr("step {step} ({label})", step=40, label="mental.shares")
    assert render(tr("abandoned: {what} waited past the table's limit, waiting on {who}; silence "
                     "convicts nobody", what=what, who="seat 2")) == (
        "abandon : étape 40 (mental.shares) a attendu au-delà de la limite de la table, en "
        "attendant seat 2 ; le silence ne condamne personne")  # the screen names seat 2
    assert render(tr("the dealer says {verdict}", verdict=tr("right"))) == "le donneur dit juste"
    assert render(tr("{who} is a false prophet", who="seat 1")) == "seat 1 est un faux prophète"
    with pytest.raises(UnknownGame) as unknown:
        info("tarok")
    assert render(unknown.value) == "jeu inconnu 'tarok' (connus : " + ", ".join(
        sorted(unknown.value.args[0].fields["known"].split(", "))) + ")"


def test_english_and_unknown_sentences_pass_through() -> None:
    assert render("the dealer says right") == "the dealer says right"  # English: as it came
    i18n.set_language("fr")
    try:
        assert render("a sentence no layer makes") == "a sentence no layer makes"
    finally:
        i18n.set_language("en")


def test_a_cheating_verdicts_reason_reads_in_french(french: None) -> None:
    """A move's reason nests in the verdict's: each level and the place in the game are French."""
    said = tr("illegal: {reason} ({where})", reason=tr(
        "the dealer's statement contradicts his rule: he {statement}", statement=tr(
            "judged {verdict} on {cards}", verdict=tr("right"), cards="7H 8H")),
        where=tr("round {round}, play {play}", round=1, play=3))
    assert said == ("illegal: the dealer's statement contradicts his rule: he judged right on 7H 8H "
                    "(round 1, play 3)")  # the English the abort record signs
    assert render(said) == ("illégal : la déclaration du donneur contredit sa règle : il a jugé "
                            "juste sur 7H 8H (manche 1, coup 3)")
    assert render(tr("illegal: {reason} ({where})", reason=tr("discard 1 or 2 minors (R32)"),
                     where=tr("turn {turn}, P{player}'s activation", turn=3, player=2))) == \
        "illégal : défaussez 1 ou 2 mineures (R32) (tour 3, activation de P2)"
    assert render(tr("step {step}: sent {kind}, expected {value}", step=40, kind="mental.shares",
                     value="move")) == "étape 40 : a envoyé mental.shares, attendu move"


def test_verify_reads_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """`p2ptarot verify --lang fr`: the verifier's own reasons and the engine's, in French; the
    evidence a conviction quotes listed below it, a line each, not again in the reason."""
    from p2ptarot.cli.main import main

    vectors = PACKAGE.parent / "protocol" / "vectors"
    try:
        assert main(["verify", "--lang", "fr", str(vectors / "invalid-duplicated-line.jsonl")]) == 1
        out = capsys.readouterr().out
        assert "la ligne 32 répète mot pour mot la ligne 31 (le fichier n'est pas un journal cohérent" in out
        assert main(["verify", "--lang", "fr", str(vectors / "invalid-illegal-move.jsonl")]) == 1
        assert "illégal : ne tient pas l'emplacement 26" in capsys.readouterr().out
        assert main(["verify", "--lang", "fr", str(vectors / "invalid-abort-evidence-equivocation.jsonl")]) == 1
        out = capsys.readouterr().out
        assert "équivoque : deux messages signés pour l'étape 3\n" in out and "evidence" not in out
    finally:
        i18n.set_language("en")


def test_the_pages_replay_of_a_cheating_game_reads_in_french(french: None) -> None:
    """`p2ptarot web --replay` of a convicted transcript: the verdict line in French, the
    evidence it re-checked named once (seen on a 390 × 844 screenshot)."""
    from p2ptarot.cli.web_cmd import replay_event

    verdict = replay_event(PACKAGE.parent / "protocol" / "vectors" / "invalid-illegal-move.jsonl").verdict
    assert verdict.startswith("transcription INVALIDE à l'étape 14 : illégal : ne tient pas "
                              "l'emplacement 26 — preuve : message move signé")
    assert "evidence" not in verdict and verdict.count("preuve") == 1
