"""PROTOCOL.md alone (with protocol/) specifies every byte a verifier hashes (issue 24): the
independent verifier in stranger_verifier.py, which imports nothing from p2ptarot, accepts every
valid conformance vector, agrees with the worked example of protocol/vectors/crypto.json, and
refuses tampered copies — a flipped signature bit, an edited body, a repeated or moved line, and
re-signed messages whose Schnorr, shuffle or Chaum–Pedersen proof is wrong. Every shuffle of every
valid vector is checked against the stage before it, from the open deck of protocol/decks.json."""

from __future__ import annotations

import ast
import base64
import hashlib
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from . import stranger_verifier as sv

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
INDEX = json.loads((VECTORS / "transcripts.json").read_text())
VALID = [e["file"] for e in INDEX if e["expect"]["valid"]]
CRYPTO = json.loads((VECTORS / "crypto.json").read_text())


def test_it_imports_nothing_from_p2ptarot() -> None:
    tree = ast.parse(Path(sv.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not [m for m in names if m.startswith(("p2ptarot", "tests"))], names


@pytest.mark.parametrize("name", VALID)
def test_it_accepts_every_valid_vector(name: str) -> None:
    error, counts = sv.check(VECTORS / name)
    assert error is None
    assert counts["schnorr"] >= 2 and counts["shuffles"] >= 2 and counts["shares"] > 0
    assert counts["envelopes"] > 10


def test_it_recomputes_the_worked_example() -> None:
    """crypto.json's key proof, decryption share and re-encryption, from their inputs."""
    table_id = bytes.fromhex(CRYPTO["charter"]["table_id"])
    assert hashlib.sha256(b"p2ptarot/charter\0" + bytes.fromhex(CRYPTO["charter"]["canonical"])
                          ).digest() == table_id
    deck, epoch = CRYPTO["deck"], CRYPTO["epoch"]
    b64 = lambda h: base64.urlsafe_b64encode(bytes.fromhex(h)).rstrip(b"=").decode()  # noqa: E731
    keys = {}
    for k in CRYPTO["keys"]:
        ctx = sv.ctx(table_id, deck, epoch, "key", k["seat"])
        assert ctx.hex() == k["ctx"]
        keys[k["seat"]] = bytes.fromhex(k["h"])
        sv.check_schnorr(ctx, keys[k["seat"]], b64(k["proof"]))
    H = sv.add(keys[0], keys[1])
    assert H.hex() == CRYPTO["joint_key"]
    sh = CRYPTO["share"]
    ct = bytes.fromhex(sh["ciphertext"])
    ctx = sv.ctx(table_id, deck, epoch, "share", sh["handle"], sh["version"], sh["seat"])
    assert ctx.hex() == sh["ctx"]
    sv.check_share(ctx, keys[sh["seat"]], ct[:32], ct[32:], bytes.fromhex(sh["d"]), b64(sh["proof"]))
    re = CRYPTO["reencryption"]
    old, new = bytes.fromhex(re["old"]), bytes.fromhex(re["new"])
    ctx = sv.ctx(table_id, deck, epoch, "reencrypt", re["handle"], re["version"], re["seat"])
    assert ctx.hex() == re["ctx"]
    sv.check_reencrypt(ctx, H, (old[:32], old[32:]), (new[:32], new[32:]), b64(re["proof"]))
    with pytest.raises(sv.Refused):  # the same proof for another statement
        sv.check_reencrypt(ctx, H, (new[:32], new[32:]), (old[:32], old[32:]), b64(re["proof"]))


# ---- tampered copies ----------------------------------------------------------------------------
def _lines(name: str = "valid.jsonl") -> list[bytes]:
    return (VECTORS / name).read_bytes().split(b"\n")[:-1]


def _write(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _first(lines: list[bytes], kind: str, pred=lambda e: True) -> int:
    return next(i for i, x in enumerate(lines) if i and json.loads(x)["kind"] == kind
                and pred(json.loads(x)))


def _resign(lines: list[bytes], i: int, body: dict) -> bytes:
    """Line `i` with another body, properly signed by its seat (the vectors' identities are
    Ed25519 keys from published seeds, protocol/make_vectors.py)."""
    env = json.loads(lines[i])
    env["body"] = body
    seed = hashlib.sha256(b"p2ptarot/vector-identity/%d" % env["seat"]).digest()
    key = Ed25519PrivateKey.from_private_bytes(seed)
    charter = json.loads(lines[0])["charter"]["charter"]
    assert sv.unb64(charter["seats"][env["seat"]]["key"]) == key.public_key().public_bytes_raw()
    unsigned = {k: v for k, v in env.items() if k != "sig"}
    sig = key.sign(b"p2ptarot/envelope\0" + sv.canonical(unsigned))
    env["sig"] = base64.urlsafe_b64encode(sig).rstrip(b"=").decode()
    return sv.canonical(env)


def _flip(text: str, byte: int) -> str:
    raw = bytearray(sv.unb64(text))
    raw[byte] ^= 1
    return base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


def test_a_flipped_signature_bit(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "move")
    env = json.loads(lines[i])
    env["sig"] = _flip(env["sig"], 10)
    lines[i] = sv.canonical(env)
    assert "§4: a bad signature" in sv.verify(_write(tmp_path, lines))


def test_an_edited_body_under_the_old_signature(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "mental.shuffle")
    env = json.loads(lines[i])
    env["body"]["ciphertexts"].reverse()
    lines[i] = sv.canonical(env)
    assert "§4: a bad signature" in sv.verify(_write(tmp_path, lines))


def test_a_non_canonical_line(tmp_path: Path) -> None:
    lines = _lines()
    lines[3] = json.dumps(json.loads(lines[3]), sort_keys=True).encode()  # with spaces
    assert "§2" in sv.verify(_write(tmp_path, lines))


def test_a_repeated_and_a_moved_line(tmp_path: Path) -> None:
    lines = _lines()
    assert "repeats" in sv.verify(_write(tmp_path, lines[:6] + lines[5:]))
    i = _first(lines, "move")
    j = next(k for k in range(i + 1, len(lines)) if json.loads(lines[k])["step"]
             > json.loads(lines[i])["step"])
    moved = list(lines)
    moved[i], moved[j] = moved[j], moved[i]
    assert sv.verify(_write(tmp_path, moved)) is not None


def test_a_resigned_message_in_another_history(tmp_path: Path) -> None:
    """A properly signed message whose body changed: its own checks pass, but the next step's
    messages chain to the original (§4)."""
    lines = _lines()
    i = _first(lines, "move")
    env = json.loads(lines[i])
    lines[i] = _resign(lines, i, {**env["body"], "by": "bot"})
    assert "chains to another history" in sv.verify(_write(tmp_path, lines))


def test_a_resigned_key_with_a_wrong_schnorr_proof(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "mental.key", lambda e: e["seat"] == 1)
    body = json.loads(lines[i])["body"]
    lines[i] = _resign(lines, i, {**body, "proof": _flip(body["proof"], 40)})
    assert "§6.4.1" in sv.verify(_write(tmp_path, lines))


def test_a_resigned_share_with_another_shares_proof(tmp_path: Path) -> None:
    lines = _lines("valid-audit.jsonl")
    i = _first(lines, "mental.shares", lambda e: len(e["body"]["items"]) >= 2)
    body = json.loads(lines[i])["body"]
    items = body["items"]
    items[0]["proof"], items[1]["proof"] = items[1]["proof"], items[0]["proof"]
    lines[i] = _resign(lines, i, body)
    assert "§6.4.2" in sv.verify(_write(tmp_path, lines))


def test_a_resigned_key_under_its_top_bit_encoding(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "mental.key")
    body = json.loads(lines[i])["body"]
    raw = bytearray(sv.unb64(body["key"]))
    raw[31] |= 0x80
    lines[i] = _resign(lines, i, {**body, "key": base64.urlsafe_b64encode(bytes(raw))
                                  .rstrip(b"=").decode()})
    assert "§6.1" in sv.verify(_write(tmp_path, lines))


def test_a_seat_that_plays_on_after_its_abort_record(tmp_path: Path) -> None:
    assert "abort record" in sv.verify(VECTORS / "invalid-abort-then-moves.jsonl")


def test_a_resigned_shuffle_with_a_wrong_response(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "mental.shuffle", lambda e: e["seat"] == 1)
    body = json.loads(lines[i])["body"]
    lines[i] = _resign(lines, i, {**body, "proof": _flip(body["proof"], -40)})
    assert "§6.4.4" in sv.verify(_write(tmp_path, lines))


def test_a_shuffle_naming_other_handles() -> None:
    assert "§6.3" in sv.verify(VECTORS / "invalid-shuffle-wrong-inputs.jsonl")


def test_a_shown_card_is_a_checked_reencryption_and_its_new_version_is_opened() -> None:
    """valid-audit.jsonl: High Priestess shows go on the wire as re-encryptions (§6.4.3); their
    new versions (§6.5) are the ones the shown seat's shares open."""
    error, counts = sv.check(VECTORS / "valid-audit.jsonl")
    assert error is None and counts["reencryptions"] > 0
    shares = [json.loads(x) for x in _lines("valid-audit.jsonl")[1:]
              if json.loads(x)["kind"] == "mental.shares"]
    assert any(item["version"] > 0 for r in shares for item in r["body"]["items"])


@pytest.mark.parametrize("name,section", [("invalid-blind-open-mismatch.jsonl", "§7.1"),
                                          ("invalid-secret-open-mismatch.jsonl", "§7.2"),
                                          ("invalid-sealed-size.jsonl", "§7.3")])
def test_openings_that_do_not_match_their_commitments(name: str, section: str) -> None:
    assert section in sv.verify(VECTORS / name)


def test_every_coin_blind_move_and_secret_opening_is_checked() -> None:
    for name, least in (("valid.jsonl", 2), ("valid-blind.jsonl", 16), ("valid-secret.jsonl", 5)):
        error, counts = sv.check(VECTORS / name)
        assert error is None and counts["openings"] >= least, (name, counts)


def test_a_resigned_coin_opening_with_another_value(tmp_path: Path) -> None:
    lines = _lines()
    i = _first(lines, "coin.open")
    body = json.loads(lines[i])["body"]
    lines[i] = _resign(lines, i, {**body, "value": _flip(body["value"], 0)})
    assert "§7:" in sv.verify(_write(tmp_path, lines))


# ---- protocol 7: framing, bound fields, abort records, verdict classes -------------------------
V7 = [e for e in INDEX if not e["expect"]["valid"] and e["file"].removeprefix("invalid-")
      .removesuffix(".jsonl").startswith(("framing-", "coin-purpose", "abort-version",
                                          "abort-body-key", "abort-blame-range", "abort-step"))]


def test_every_protocol_7_refusal_has_a_vector() -> None:
    assert len(V7) == 8


@pytest.mark.parametrize("entry", V7, ids=[e["file"] for e in V7])
def test_it_refuses_each_protocol_7_vector_as_the_reference_does(entry: dict) -> None:
    """The same verdict class (§9.2) as `p2ptarot verify`, and for a framing fault the same
    line, reached without any rules engine."""
    error, _counts, kind, line = sv.run(VECTORS / entry["file"])
    expect = entry["expect"]
    assert error is not None and kind == expect["verdict"], (error, expect)
    if entry["file"].startswith("invalid-framing-"):
        assert f"line {line} " in expect["reason_contains"] + " "
    section = {"coin-purpose": "§6.6", "framing-": "§9:", "abort-": "§9.1"}
    name = entry["file"].removeprefix("invalid-")
    assert next(v for k, v in section.items() if name.startswith(k)) in error


def test_a_crlf_transcript_is_refused_by_the_stranger_too(tmp_path: Path) -> None:
    data = (VECTORS / "valid.jsonl").read_bytes()
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(data.replace(b"\n", b"\r\n"))
    error, _counts, kind, line = sv.run(path)
    assert kind == "not-a-transcript" and line == 1 and "§9.2" in error


def test_the_reshuffle_vector_is_checked_against_the_retired_handles(tmp_path: Path) -> None:
    """valid-reshuffle.jsonl renews arcanoïd's draw pile (scripted votes): every reshuffle's
    proof is checked against the current versions of its `inputs`; naming them in another
    order, re-signed, breaks the proof's statement."""
    name = "valid-reshuffle.jsonl"
    error, counts = sv.check(VECTORS / name)
    assert error is None and counts["shuffles"] >= 6
    lines = _lines(name)
    i = _first(lines, "mental.shuffle", lambda e: e["body"]["inputs"])
    body = json.loads(lines[i])["body"]
    assert len(body["inputs"]) >= 2
    lines[i] = _resign(lines, i, {**body, "inputs": body["inputs"][::-1]})
    refused = sv.verify(_write(tmp_path, lines[:i + 1]))
    assert refused is not None and "§6.4.4" in refused


# ---- protocol 7: the deal and the audit, checked without any rules engine (§6.7) ----------------
NAMED = [e for e in INDEX if e["file"] in (
    "invalid-shares-targets.jsonl", "invalid-shares-owing.jsonl", "invalid-audit-targets.jsonl",
    "invalid-audit-card-left-out.jsonl", "invalid-reencrypt-targets.jsonl")]


def test_every_named_list_mismatch_has_a_vector() -> None:
    assert len(NAMED) == 5


@pytest.mark.parametrize("entry", NAMED, ids=[e["file"] for e in NAMED])
def test_it_refuses_each_named_list_vector_as_the_reference_does(entry: dict) -> None:
    """The same class and step as `p2ptarot verify`; the seat it blames is verify's, or — when
    two messages of one operation name different lists, which only the rules can settle — a
    pair of seats that contains verify's."""
    judged = sv.judge(VECTORS / entry["file"])
    expect = entry["expect"]
    assert judged["kind"] == expect["verdict"] == "convicted", (judged, expect)
    assert judged["step"] == expect["step"], (judged, expect)
    assert "§6.7" in judged["error"]
    assert expect["seat"] in judged["seats"]
    if "name different lists" not in judged["error"]:
        assert judged["seats"] == (expect["seat"],)


@pytest.mark.parametrize("name", VALID)
def test_every_valid_vector_names_its_lists_and_the_audits_open_them(name: str) -> None:
    """Every share operation's targets, owing seats and audit flag check out against the public
    record, every share owed was given, and every audit opened exactly its listed handles."""
    judged = sv.judge(VECTORS / name)
    assert judged["error"] is None
    assert judged["counts"]["targets"] > 0
    shares = [json.loads(x)["body"] for x in _lines(name)[1:]
              if json.loads(x)["kind"] == "mental.shares"]
    listed = {(s["deck"], s["epoch"], t[0]) for s in shares if s["audit"] for t in s["targets"]}
    assert judged["counts"]["audit_opened"] == len(listed)


def test_the_audit_vectors_open_cards_under_pending_claims() -> None:
    """Two games whose final audit opens cards pending claims cover: arcanoïd (valid-audit, the
    passes to calls) and sinople (the opener search every seat denied, ruling S2, an invalid
    vector: the opened cards convict a liar). Without the rules the stranger checks that each
    audit opened exactly its listed handles, each to a card of the deck; the conviction itself
    needs the rules (verify's)."""
    for name in ("valid-audit.jsonl", "invalid-search-denied-audit.jsonl"):
        judged = sv.judge(VECTORS / name)
        assert judged["error"] is None and judged["counts"]["audit_opened"] > 0, (name, judged)
    expect = next(e["expect"] for e in INDEX if e["file"] == "invalid-search-denied-audit.jsonl")
    assert (expect["verdict"], expect["seat"]) == ("convicted", 1)


def test_a_share_owed_and_withheld_is_convicted_without_the_rules(tmp_path: Path) -> None:
    """Any share operation of the valid game: drop the last item of a message, re-signed, and
    the stranger convicts exactly its signer at its step (its own targets say it owed it)."""
    lines = _lines()
    i = _first(lines, "mental.shares", lambda e: len(e["body"]["items"]) >= 2)
    env = json.loads(lines[i])
    lines[i] = _resign(lines, i, {**env["body"], "items": env["body"]["items"][:-1]})
    judged = sv.judge(_write(tmp_path, lines[:i + 1]))
    assert judged["kind"] == "convicted" and judged["seats"] == (env["seat"],)
    assert judged["step"] == env["step"] and "§6.7" in judged["error"]


def test_an_audit_flag_removed_is_seen(tmp_path: Path) -> None:
    """An audit message that says `audit: false` under its audit's targets, re-signed: the other
    messages of the step say true (two lists), or, alone in its step, the next step's deck
    message of that epoch is not refused as after-audit — either way not valid-as-is: here the
    vector's audit step has two messages, so the stranger names the pair."""
    lines = _lines("valid-audit.jsonl")
    audits = [i for i, x in enumerate(lines) if i and json.loads(x)["kind"] == "mental.shares"
              and json.loads(x)["body"]["audit"]]
    steps = [json.loads(lines[i])["step"] for i in audits]
    i = next(k for k, s in zip(audits, steps) if steps.count(s) >= 2 and
             json.loads(lines[k - 1])["step"] == s)
    env = json.loads(lines[i])
    lines[i] = _resign(lines, i, {**env["body"], "audit": False})
    judged = sv.judge(_write(tmp_path, lines[:i + 1]))
    assert judged["kind"] == "convicted" and env["seat"] in judged["seats"]
