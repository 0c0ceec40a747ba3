"""The OpenAPI document describes every operation: request bodies, replies and every error
status, all errors with the one error shape (issue 13)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from omoide.api.http.app import create_app
from omoide.wiring import Omoide

# The document is built from the routes' declarations; no store is read.
pytestmark = pytest.mark.sqlite_only

NO_BODY = {
    ("POST", "/api/sessions/{persona}/{session_id}/end"),
    ("POST", "/api/context/{persona}/session"),
    ("POST", "/api/personas/{name}/keys"),
}


def operations(app: Omoide) -> list[tuple[str, str, dict[str, Any]]]:
    paths = create_app(app, start_workers=False).openapi()["paths"]
    return [(method.upper(), path, op) for path, ops in paths.items() for method, op in ops.items()]


def test_every_write_declares_its_request_body(app: Omoide) -> None:
    writes = [(m, p, op) for m, p, op in operations(app) if m in ("POST", "PUT", "PATCH")]
    assert len(writes) >= 13
    for method, path, op in writes:
        if (method, path) in NO_BODY:
            assert "requestBody" not in op, (method, path)
            continue
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        assert schema, (method, path)


def test_every_operation_documents_its_replies_and_errors(app: Omoide) -> None:
    for method, path, op in operations(app):
        responses = op["responses"]
        success = [code for code in responses if code.startswith("2")]
        assert success, (method, path)
        for code in success:
            assert responses[code].get("content"), (method, path, code)
        if path != "/health":
            assert {"401", "403"} <= set(responses), (method, path)
        for code, reply in responses.items():
            if code.startswith(("4", "5")):
                ref = reply["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorBody"), (method, path, code)
        if method in ("POST", "PUT", "PATCH") and (method, path) not in NO_BODY:
            assert {"413", "422"} <= set(responses), (method, path)


def test_every_operation_declares_the_app_wide_errors_and_only_them(app: Omoide) -> None:
    """A body over the limit is a 413 on every route (the guard answers before routing), and
    under /api and /v1 an unknown query parameter or a body on a bodiless route is a 422; routes
    without a body did not declare the 413, GET /api/personas not the 422. /health reads no
    key: a 401 cannot happen there and is not declared (its 503: the database not answering)."""
    for method, path, op in operations(app):
        codes = set(op["responses"])
        assert "413" in codes, (method, path)
        if path.startswith(("/api/", "/v1/")):
            assert "422" in codes, (method, path)
        if "requestBody" not in op:
            assert "takes no body" in op["responses"]["413"]["description"], (method, path)
    health = next(op for m, p, op in operations(app) if p == "/health")
    assert set(health["responses"]) == {"200", "413", "503"}


def test_the_published_not_blank_pattern_is_the_servers_rule(app: Omoide) -> None:
    """The document's not-blank pattern stopped at U+FFFF while the server was to catch the
    rest; a client validating with the schema and the server now agree on every character,
    in the Basic Multilingual Plane and beyond."""
    import re

    from omoide.service.validate import is_blank

    schemas = create_app(app, start_workers=False).openapi()["components"]["schemas"]
    pattern = schemas["MemoryCreate"]["properties"]["content"]["pattern"]
    samples = [
        "\u200b",
        "\ufeff",
        "\U000e0001",
        "\U000e0041\U000e007f",
        "\U000e0100",
        "\U000e01ef",
        "\U0001d173",
        "\U0001d17a",
        "\U00013430",
        "\U0001343f",
        "\U0001bca0",
        "\U0001bca3",
        "\U0001f600",
        "\U00020000",
        "\U000110bd",
        "a",
        " \u3000",
        "\U000e0080",
    ]
    for sample in samples:
        assert (re.search(pattern, sample) is None) == is_blank(sample), ascii(sample)
    assert is_blank("\U000e0001\U0001d173 ") and not is_blank("\U0001f600")


_JSON_VALUE = "#/components/schemas/JsonValue"
# common.JsonValue as the document names it: FastAPI publishes a type used in requests and in
# replies once for each ("-Input", "-Output").
_JSON_VALUES = {_JSON_VALUE, f"{_JSON_VALUE}-Input", f"{_JSON_VALUE}-Output"}


def _untyped(
    schema: dict[str, Any],
    components: dict[str, Any],
    where: str,
    seen: frozenset[str] = frozenset(),
    free_form: bool = False,
) -> list[str]:
    """Places in ``schema`` that say only "an object" or "an array": no properties, no
    typed additionalProperties, no items (a client cannot tell what it sends or gets). A map
    of any JSON values is allowed only where the description says it is free-form."""
    if "$ref" in schema:
        if schema["$ref"] in _JSON_VALUES:  # any JSON value, defined once
            return []
        name = schema["$ref"].rsplit("/", 1)[-1]
        return [] if name in seen else _untyped(components[name], components, where, seen | {name})
    free_form = free_form or "free-form" in schema.get("description", "").lower()
    found = []
    extra = schema.get("additionalProperties")
    if schema.get("type") == "object" and not schema.get("properties"):
        if not isinstance(extra, dict):
            found.append(where)
        elif extra.get("$ref") in _JSON_VALUES and not free_form:
            found.append(f"{where} (any JSON values, not described as free-form)")
    if schema.get("type") == "array" and not schema.get("items"):
        found.append(where)
    for name, sub in schema.get("properties", {}).items():
        found += _untyped(sub, components, f"{where}.{name}", seen)
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            found += _untyped(sub, components, f"{where}|{key}[{i}]", seen, free_form)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _untyped(schema[key], components, f"{where}.{key}", seen)
    return found


def _bodies(app: Omoide) -> list[tuple[str, dict[str, Any]]]:
    """Every request and reply body's schema, named by method, path and status."""
    found = []
    for method, path, op in operations(app):
        parts = [("request", op.get("requestBody", {})), *op["responses"].items()]
        for part, body in parts:
            for media, content in body.get("content", {}).items():
                found.append((f"{method} {path} {part} {media}", content.get("schema", {})))
    return found


def test_no_body_is_an_untyped_object_or_array(app: Omoide) -> None:
    """The import's JSON body was published as 'an array or an object' and nothing more
    (probe 23); replies had the same hole: a block's metadata, the context's sections, the
    settings, job failures, an import's skipped items, a version's before and after, the chat
    reply's omoide object were each just "an object" (schema26). Every body now names its
    fields; the caller's own metadata is the one free-form map, and says so."""
    components = create_app(app, start_workers=False).openapi()["components"]["schemas"]
    untyped = [
        place for where, schema in _bodies(app) for place in _untyped(schema, components, where)
    ]
    assert untyped == []


def test_every_reference_names_a_schema_of_the_document(app: Omoide) -> None:
    """The import's JSON body referred to ``#/components/schemas/JsonValue``, which the
    document does not hold (FastAPI names it ``JsonValue-Input`` and ``JsonValue-Output``): a
    generated client or a validator stopped at it (session 34). Every ``$ref`` resolves."""
    document = create_app(app, start_workers=False).openapi()
    names = set(document["components"]["schemas"])
    refs = set(re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(document)))
    assert refs and refs <= names, sorted(refs - names)


def test_every_parameter_says_what_it_does(app: Omoide) -> None:
    """/docs showed search's mode, min_importance, kind and include_episodes, the memory list's
    limit, offset and include_deleted and a block's name with no word on them: what an unset
    include_episodes does (the persona's episode_search_enabled decides) was nowhere in the
    contract. Every path, query and header parameter carries a description."""
    bare = [
        f"{method} {path} {param['name']}"
        for method, path, op in operations(app)
        for param in op.get("parameters", [])
        if not (param.get("description") or param.get("schema", {}).get("description"))
    ]
    assert bare == []


def test_the_walker_finds_an_untyped_reply() -> None:
    components = {
        "Out": {
            "type": "object",
            "properties": {
                "a": {"type": "object", "additionalProperties": True},
                "b": {"type": "object", "additionalProperties": {"$ref": _JSON_VALUE}},
                "c": {
                    "type": "object",
                    "additionalProperties": {"$ref": _JSON_VALUE},
                    "description": "Free-form: anything",
                },
                "d": {"type": "array", "items": {"type": "object"}},
            },
        }
    }
    found = _untyped({"$ref": "#/components/schemas/Out"}, components, "r")
    assert found == ["r.a", "r.b (any JSON values, not described as free-form)", "r.d.items"]


# Writes whose own rows cannot lose a race with an erase: erasing a persona, revoking a key.
_NO_RACE = {("DELETE", "/api/personas/{name}"), ("DELETE", "/api/personas/{name}/keys/{key_id}")}


def test_every_write_under_a_persona_documents_the_409_of_a_raced_erase(app: Omoide) -> None:
    """A write that loses a race with an erase of its persona, session or memory answers 409
    (test_hostile_found: the store's foreign key, once a 500); the document listed 409 only
    where another conflict had been seen, so a generated client met an undeclared status on
    create memory, open and end session, state, context, blocks and keys (probe 23)."""
    missing = [
        (method, path)
        for method, path, op in operations(app)
        if method in ("POST", "PUT", "PATCH", "DELETE")
        and "{" in path
        and (method, path) not in _NO_RACE
        and "409" not in op["responses"]
    ]
    assert missing == []


def _undescribed(
    schema: dict[str, Any], components: dict[str, Any], where: str, seen: frozenset[str]
) -> list[str]:
    """Properties in ``schema`` (through references, alternatives, items and maps) that carry
    no description. A property of an alternative that only constrains a field declared beside
    it (``{"not": {"type": "null"}}``: an assistant message needs content or a tool call) is
    no field of its own."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen or name not in components:
            return []
        return _undescribed(components[name], components, where, seen | {name})
    found = []
    for name, sub in schema.get("properties", {}).items():
        if set(sub) != {"not"} and not sub.get("description"):
            found.append(f"{where}.{name}")
        found += _undescribed(sub, components, f"{where}.{name}", seen)
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            found += _undescribed(sub, components, f"{where}|{key}[{i}]", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _undescribed(schema[key], components, f"{where}.{key}", seen)
    return found


def test_every_request_body_field_says_what_it_is(app: Omoide) -> None:
    """/docs showed a block's block_type, max_tokens and priority, a memory's tags, kind and
    validity, and most chat request fields with no word on them (their limits and defaults
    only in docs/*.md). Every field of every request body, nested ones too (a chat message's,
    an import file's), carries a description."""
    components = create_app(app, start_workers=False).openapi()["components"]["schemas"]
    bare = [
        place
        for where, schema in _bodies(app)
        if " request " in where
        for place in _undescribed(schema, components, where, frozenset())
    ]
    assert bare == []


def test_the_description_walker_finds_a_bare_field() -> None:
    components = {
        "In": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "description": "said"},
                "b": {"type": "array", "items": {"$ref": "#/components/schemas/Part"}},
            },
            "anyOf": [{"required": ["a"], "properties": {"a": {"not": {"type": "null"}}}}],
        },
        "Part": {"type": "object", "properties": {"c": {"type": "string"}}},
    }
    found = _undescribed({"$ref": "#/components/schemas/In"}, components, "r", frozenset())
    assert found == ["r.b", "r.b.items.c"]
