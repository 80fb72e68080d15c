"""The checked-in JSON Schemas match the models, and a real game's bodies satisfy them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from p2ptarot.mental.messages import message_from_dict
from p2ptarot.table import canonical
from p2ptarot.table.envelope import Envelope, parse
from p2ptarot.table.schemas import BODY_MODELS, TranscriptHeader, render, wire_schemas

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "protocol" / "schemas"
VALID = ROOT / "protocol" / "vectors" / "valid.jsonl"


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    return VALID.read_bytes().splitlines()


def test_checked_in_schemas_are_what_the_models_generate() -> None:
    """Compared as JSON values, not text: a release of pydantic may lay out the same schema
    differently; a change of what a schema says fails here."""
    expected = {f"{name}.json": json.loads(render(schema)) for name, schema in wire_schemas().items()}
    on_disk = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.json")}
    assert on_disk == expected, "regenerate: python protocol/make_schemas.py"


def test_every_body_kind_has_a_schema() -> None:
    names = set(wire_schemas())
    assert {"envelope", "signed-charter", "transcript-header"} <= names
    assert {f"body.{k}" for k in BODY_MODELS} <= names
    assert set(BODY_MODELS) == {"move", "move.commit", "move.open", "coin.commit", "coin.open", "result", "abort", "mental.key",
                                "mental.shuffle", "mental.shares", "mental.reencrypt"}


def test_header_and_every_envelope_of_a_real_game_validate(lines: list[bytes]) -> None:
    TranscriptHeader.model_validate(canonical.decode(lines[0]))
    kinds = set()
    for line in lines[1:]:
        env = parse(line)
        Envelope.model_validate(json.loads(line))
        BODY_MODELS[env.kind].model_validate(env.body)
        kinds.add(env.kind)
    assert {"move", "coin.commit", "coin.open", "result", "mental.key", "mental.shuffle",
            "mental.shares"} <= kinds


def test_mental_models_agree_with_the_mental_decoder(lines: list[bytes]) -> None:
    """Mirror check: what the mental layer emits validates, and round-trips through its decoder."""
    for line in lines[1:]:
        env = parse(line)
        if env.kind.startswith("mental."):
            model = BODY_MODELS[env.kind].model_validate(env.body)
            assert model.model_dump(mode="json") == message_from_dict(env.body).to_dict()


def _first_body(lines: list[bytes], kind: str) -> dict:
    return next(parse(x).body for x in lines[1:] if parse(x).kind == kind)


@pytest.mark.parametrize("mutate", [
    lambda b: {**b, "extra": 1},
    lambda b: {**b, "seat": True},
    lambda b: {**b, "seat": 12},
    lambda b: {**b, "key": b["key"] + "A"},
    lambda b: {**b, "key": b["key"][:-1] + "B"},  # non-canonical tail bits
    lambda b: {**b, "proof": b["proof"][:-1]},
    lambda b: {k: v for k, v in b.items() if k != "op"},
])
def test_mental_key_schema_rejects_malformed_bodies(lines: list[bytes], mutate) -> None:
    body = _first_body(lines, "mental.key")
    BODY_MODELS["mental.key"].model_validate(body)
    with pytest.raises(ValidationError):
        BODY_MODELS["mental.key"].model_validate(mutate(body))


def test_shares_schema_rejects_a_float_handle(lines: list[bytes]) -> None:
    body = json.loads(json.dumps(_first_body(lines, "mental.shares")))
    body["items"][0]["handle"] = 1.0
    with pytest.raises(ValidationError):
        BODY_MODELS["mental.shares"].model_validate(body)
