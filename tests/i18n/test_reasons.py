"""Sentences made below the front ends (the rule language's errors, the engine's registry, the
finders, the handshake, abort reasons, Eleusis' last events) reach a French player in French:
every message those layers raise has a template in `i18n.reasons`, and `say` fills its
translation with the sentence's own fields."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from p2ptarot import i18n
from p2ptarot.games.eleusis.erl import ErlError, compile_rule
from p2ptarot.i18n.reasons import say, template_of

PACKAGE = Path(i18n.__file__).resolve().parent.parent

#: (files, the callables whose argument is a sentence, that argument's position)
RAISERS = [
    ("games/eleusis/erl/*.py", {"ErlError": 0, "error": 0, "_err": 1}),
    ("engine/registry.py", {"BadConfiguration": 0, "UnknownGame": 0}),
    ("table/room.py", {"RoomError": 0}),
    ("net/linkset.py", {"HandshakeError": 1}), ("net/carrier.py", {"HandshakeError": 1}),
    ("net/wsmesh.py", {"ConnectError": 0}), ("net/online/mesh.py", {"ConnectError": 0}),
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
RETURNERS = [("games/arcanoid/engage.py", "composition_error"), ("games/arcanoid/secret.py", "composition_error"),
             ("games/arcanoid/secret.py", "decide"), ("games/arcanoid/variants/worms.py", "_content_error")]
#: raise sites that only code reads (a caller's bug, never a player's doing)
INTERNAL = {"an omniscient state has no viewer seat", "viewer seat x out of range"}


def _sample(node: ast.AST) -> str | None:
    """The sentence a message expression makes, each variable part written 'x'."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else _part(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _sample(node.left), _sample(node.right)
        return None if left is None or right is None else left + right
    return None  # a variable: made elsewhere


def _part(value: ast.AST) -> str:
    """A variable part: 'x', or a plural's ending ("card{'s' if n > 1 else ''}": 's')."""
    inner = getattr(value, "value", None)
    if isinstance(inner, ast.IfExp) and isinstance(inner.body, ast.Constant):
        return str(inner.body.value)
    return "x"


def _messages() -> list[tuple[str, str]]:
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
                    text = _sample(arg)
                    if text is not None and text not in INTERNAL:
                        out.append((f"{path.name}:{node.lineno}", text))
    for pattern, function in RETURNERS:
        for path in sorted(PACKAGE.glob(pattern)):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and node.name == function:
                    for ret in ast.walk(node):
                        if isinstance(ret, ast.Return) and ret.value is not None:
                            for part in (ret.value, getattr(ret.value, "body", None),
                                         getattr(ret.value, "orelse", None)):
                                text = None if part is None else _sample(part)
                                if text is not None:
                                    out.append((f"{path.name}:{ret.lineno}", text))
    return out


def test_every_message_a_player_may_read_has_a_template() -> None:
    messages = _messages()
    assert len(messages) > 280  # the rule language alone raises some forty, the engines some 200
    missing = [(where, text) for where, text in messages if template_of(text) is None]
    assert not missing, missing


def test_the_finders_sentences_have_templates() -> None:
    """net/finder.py builds its sentences from optional parts: each combination is known."""
    for what in ("", "sinople "):
        for whose in ("", " hosted by 3F2A"):
            assert template_of(f"no open {what}table{whose} seen on the LAN within 10 s "
                               "(is the host running, and on this network?)"), (what, whose)
        assert template_of(f"2 open {what}tables on the LAN; name the one to join "
                           f"(join FINGERPRINT or join ws://HOST:PORT):\n  a\n  b"), what


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
    assert say(err.message) == "une valeur est attendue ici ; trouvé : la fin de la règle"
    lines = error_lines("accept c.rank >\n", err)
    assert lines[0] == ("  règle invalide : une valeur est attendue ici ; trouvé : la fin de la "
                        "règle (ligne 2, colonne 1)")
    assert say(_erl_error("accept c.rank == p1.suit\n").message) == \
        "« == » compare un entier avec une enseigne"
    assert say(_erl_error("accept c.rank == p2.rank\n").message) == (
        "p2 peut ne pas exister ici : protégez-la par n >= 2 (la ligne principale peut n'avoir "
        "que 1 carte)")
    assert say(_erl_error("accept Q\n").message) == \
        "caractère inattendu 'Q' (les noms sont en minuscules)"


def test_abort_reasons_and_events_read_in_french(french: None) -> None:
    assert say("abandoned: step 40 (mental.shares) waited past the table's limit, waiting on "
               "seat 2; silence convicts nobody") == (
        "abandon : étape 40 (mental.shares) a attendu au-delà de la limite de la table, en "
        "attendant seat 2 ; le silence ne condamne personne")  # the screen names seat 2
    assert say("the dealer says right") == "le donneur dit juste"
    assert say("seat 1 is a false prophet") == "seat 1 est un faux prophète"
    assert say(KeyError("unknown game 'tarok' (known: sinople)")) == \
        "jeu inconnu 'tarok' (connus : sinople)"


def test_english_and_unknown_sentences_pass_through() -> None:
    assert say("the dealer says right") == "the dealer says right"  # English: as it came
    i18n.set_language("fr")
    try:
        assert say("a sentence no layer makes") == "a sentence no layer makes"
    finally:
        i18n.set_language("en")


def test_a_cheating_verdicts_reason_reads_in_french(french: None) -> None:
    """A move's reason nests in the verdict's: each level and the place in the game are French,
    a reason's own parenthesis ("(R32)") kept apart from the place's."""
    assert say("illegal: the dealer's statement contradicts his rule: he judged right on 7H 8H "
               "(round 1, play 3)") == ("illégal : la déclaration du donneur contredit sa règle : il a "
                                        "jugé juste sur 7H 8H (manche 1, coup 3)")
    assert say("illegal: discard 1 or 2 minors (R32) (turn 3, P2's activation)") == \
        "illégal : défaussez 1 ou 2 mineures (R32) (tour 3, activation de P2)"
    assert say("illegal: claimed not to hold 5-1, but held it (the opener search found no opener); "
               "seat(s) 2, 3 also denied a card they held (round 1, opener search for 5-1)") == (
        "illégal : a prétendu ne pas tenir 5-1, mais la tenait (la recherche de l'ouvreur n'a trouvé "
        "aucun ouvreur) ; seat(s) 2, 3 ont aussi nié une carte qu'ils tenaient (manche 1, recherche "
        "de l'ouvreur pour 5-1)")
    assert say("step 40: sent mental.shares, expected move") == \
        "étape 40 : a envoyé mental.shares, attendu move"


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
