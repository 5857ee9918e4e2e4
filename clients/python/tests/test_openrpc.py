"""`rpc.discover` as a generator reads it: every schema a valid JSON Schema, every `$ref` leading somewhere,
and the server's real answers valid against the result schemas the document gives (entities by `$ref`)."""
from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from satchel_client import Satchel


def png(width: int, height: int) -> bytes:
    """A grey PNG of this size."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    with Satchel(memory=True) as s:
        return s.rpc.discover()


def index(document: dict[str, Any]) -> dict[str, int]:
    return {method["name"]: position for position, method in enumerate(document["methods"])}


def validate(document: dict[str, Any], method: str, answer: Any) -> None:
    """Checks `answer` against `method`'s result schema, its `$ref`s read in the document."""
    root = dict(document)
    root["$ref"] = f"#/methods/{index(document)[method]}/result/schema"
    Draft202012Validator(root).validate(answer)


def test_every_schema_is_a_valid_json_schema(document: dict[str, Any]) -> None:
    schemas = [("components." + name, schema) for name, schema in document["components"]["schemas"].items()]
    for method in document["methods"] + document["x-notifications"]:
        schemas += [(f"{method['name']}({param['name']})", param["schema"]) for param in method["params"]]
        if "result" in method:
            schemas.append((method["name"], method["result"]["schema"]))
    for where, schema in schemas:
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as error:  # the schema error names what is wrong
            raise AssertionError(f"{where}: {error}") from error


def test_every_reference_leads_to_a_component(document: dict[str, Any]) -> None:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "$ref" in value:
                found.append(value["$ref"])
            for member in value.values():
                walk(member)
        elif isinstance(value, list):
            for member in value:
                walk(member)

    walk(document)
    assert "#/components/schemas/Note" in found and "#/components/errors/NotFound" in found
    for target in found:
        _, _, kind, name = target.split("/")
        assert name in document["components"][kind], f"{target} leads nowhere"
    for name, schema in document["components"]["schemas"].items():
        assert schema["title"] == name


def test_real_answers_match_the_documented_results(document: dict[str, Any]) -> None:
    with Satchel(memory=True) as s:
        note = s.notes.create(title="Groceries", color={"hue": 0.3, "saturation": 0.5, "brightness": 1})
        validate(document, "notes.create", note)
        validate(document, "notes.list", s.notes.list())
        photo = s.photos.add(image={"data": base64.b64encode(png(40, 30)).decode(), "mimeType": "image/png"})
        validate(document, "photos.add", photo)
        validate(document, "images.get", s.images.get(id=photo["image"]["id"], size="thumbnail"))
        validate(document, "diary.create", s.diary.create(text="A walk", images=[{"imageId": photo["image"]["id"]}]))
        validate(document, "diary.list", s.diary.list())
        validate(document, "reminders.add", s.reminders.add(title="Milk"))
        validate(document, "reminders.list", s.reminders.list())
        validate(document, "messages.send", s.messages.send(text="Hello"))
        validate(document, "board.create", s.board.create(title="Ideas"))
        validate(document, "changes.since", s.changes.since(cursor=s.changes.since()["nextCursor"]))
        events = s.changes.since(cursor=s.changes.subscribe()["cursor"])
        validate(document, "changes.since", events)
        validate(document, "server.info", s.server.info())
        # A wrong answer is caught: the schemas are not open to anything.
        with pytest.raises(ValidationError):
            validate(document, "notes.create", {**note, "color": {"hue": "red"}})
