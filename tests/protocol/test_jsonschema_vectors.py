"""Every line of every conformance vector against protocol/schemas/, with a JSON Schema library
(`jsonschema`, draft 2020-12) rather than the pydantic models the schemas come from: the header
against transcript-header.json, each envelope against envelope.json and its body against
body.<kind>.json. Only the lines transcripts.json lists as `schema_invalid_lines` (a malformed
body the vector is about) may fail; every other line of every vector must pass."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors"
INDEX = json.loads((VECTORS / "transcripts.json").read_text(encoding="utf-8"))
SCHEMAS = {p.stem: json.loads(p.read_text(encoding="utf-8"))
           for p in (ROOT / "protocol" / "schemas").glob("*.json")}


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {name: _validator(name) for name in SCHEMAS}


def _errors(number: int, record: dict) -> list[str]:
    if number == 1:
        return [e.message for e in VALIDATORS["transcript-header"].iter_errors(record)]
    errs = [e.message for e in VALIDATORS["envelope"].iter_errors(record)]
    body = VALIDATORS.get(f"body.{record.get('kind')}")
    if body is None:
        return errs + [f"no schema for kind {record.get('kind')!r}"]
    return errs + [e.message for e in body.iter_errors(record["body"])]


def _records(name: str) -> list[bytes]:
    """A vector's records: its lines without a framing vector's faults (an empty line, a `\\r`
    before the `\\n`, bytes after the last `\\n`: PROTOCOL §9 refuses those, not the schemas)."""
    return [line.rstrip(b"\r") for line in (VECTORS / name).read_bytes().split(b"\n")[:-1]
            if line]


@pytest.mark.parametrize("entry", INDEX, ids=[e["file"] for e in INDEX])
def test_every_line_of_every_vector_validates_except_the_listed_ones(entry: dict) -> None:
    lines = _records(entry["file"])
    failing = {}
    for number, line in enumerate(lines, start=1):
        errs = _errors(number, json.loads(line))
        if errs:
            failing[number] = errs
    assert sorted(failing) == entry["schema_invalid_lines"], failing
    if entry["expect"]["valid"]:
        assert not failing


def test_the_abort_evidence_quoted_in_vectors_validates_too() -> None:
    """Evidence items are envelopes too (base64url of their canonical bytes)."""
    quoted = 0
    for entry in INDEX:
        for line in _records(entry["file"])[1:]:
            record = json.loads(line)
            if record["kind"] != "abort":
                continue
            for item in record["body"]["evidence"]:
                env = json.loads(base64.urlsafe_b64decode(item + "=" * (-len(item) % 4)))
                assert not [e for e in VALIDATORS["envelope"].iter_errors(env)]
                quoted += 1
    assert quoted >= 2


def test_the_schemas_say_what_the_prose_says() -> None:
    """PROTOCOL §3: every charter field is required (no default a reader would fill in), and so
    is every key of an abort body (§5, §8); §5/§7.2:
    `secret` and `by` are absent or a value, never null; §7.3: `sealed` has an honest size; §6.3:
    a shuffle names its input and output handles."""
    charter = SCHEMAS["signed-charter"]["$defs"]["Charter"]
    assert set(charter["required"]) == set(charter["properties"])
    assert not any("default" in p for p in charter["properties"].values())
    move = VALIDATORS["body.move"]
    assert move.is_valid({"move": {"kind": "x"}, "shares": []})
    assert not move.is_valid({"move": {"kind": "x"}, "shares": [], "secret": None})
    assert not move.is_valid({"move": {"kind": "x"}, "shares": [], "by": None})
    commit = VALIDATORS["body.move.commit"]
    b64 = lambda n: base64.urlsafe_b64encode(b"\x01" * n).rstrip(b"=").decode()  # noqa: E731
    for size in (272, 528, 1040, 2064, 4112, 8208, 16400):
        assert commit.is_valid({"digest": b64(32), "sealed": b64(size)}), size
    for size in (0, 16, 271, 273, 300, 16399, 16401):
        assert not commit.is_valid({"digest": b64(32), "sealed": b64(size)}), size
    assert set(SCHEMAS["body.abort"]["required"]) == {"blame", "reason", "step", "evidence"}
    shuffle = SCHEMAS["body.mental.shuffle"]
    assert {"inputs", "outputs"} <= set(shuffle["required"])
    assert "H(label, context" not in json.dumps(SCHEMAS["body.coin.commit"])
