"""Session 43, through real HTTP on both stores: one limit for each input, said by the schema
and enforced by the service alike. A timestamp and a date range had a length limit over MCP
(a literal) and none over HTTP; a memory key's 64 was a literal in each route; the user_name
and assistant_name of a chat import had their own 200 beside the speaker's. And the length
counted is the stored text's (its NFC form): a text that is longer once normalised is refused
naming the unit, instead of a count that matches nothing the client sent."""

from __future__ import annotations

import re

import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.model import NAME_PATTERN
from omoide.service.event_input import MAX_SPEAKER_CHARS
from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.validate import MAX_DATE_RANGE_CHARS, MAX_NAME_CHARS, MAX_TIMESTAMP_CHARS

DEVA_QA = "\u0958"  # क़: NFC writes it as two code points, क U+0915 + ़ U+093C
NFC_SAID = "counted in code points of its Unicode NFC form"


def test_content_longer_once_in_nfc_is_refused_naming_the_unit(server: LiveServer) -> None:
    key = server.create_persona("rin")
    sent = DEVA_QA * (MAX_CONTENT_CHARS // 2 + 1)  # within the schema's maxLength as sent
    with server.client(key) as rin:
        error = refused(rin.post("/api/memories/rin", json={"content": sent}), 422)
        assert error["field"] == "content", error
        assert error["message"].startswith(
            f"content must be at most {MAX_CONTENT_CHARS:,} characters, "
            f"got {2 * len(sent):,}, {NFC_SAID}"
        ), error
        assert "U+0958" in error["message"], error
        made = rin.post("/api/memories/rin", json={"content": "tea"}).json()["memory"]["key"]
        error = refused(rin.patch(f"/api/memories/rin/{made}", json={"content": sent}), 422)
        assert NFC_SAID in error["message"], error
        # text NFC does not grow is told as before, without the note
        plain = "x" * (MAX_CONTENT_CHARS + 1)
        error = refused(rin.post("/api/memories/rin", json={"content": plain}), 422)
        assert error["message"] == (
            f"content must be at most {MAX_CONTENT_CHARS:,} characters, got {len(plain):,}"
        ), error
        # at the limit once normalised, it is taken and kept in NFC
        fits = DEVA_QA * (MAX_CONTENT_CHARS // 2)
        made = rin.post("/api/memories/rin", json={"content": fits})
        assert made.status_code == 201, made.text[:300]
        assert len(made.json()["memory"]["content"]) == MAX_CONTENT_CHARS


def test_a_state_value_longer_once_in_nfc_says_so(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        error = refused(rin.put("/api/user-state/rin", json={"name": DEVA_QA * 1001}), 422)
    assert error["field"] == "name", error
    assert error["message"].startswith(
        f"name must be at most 2,000 characters, got 2,002, {NFC_SAID}"
    ), error


@pytest.mark.parametrize(
    ("method", "path", "field"),
    [
        ("POST", "/api/memories/rin", "valid_from"),
        ("POST", "/api/sessions/rin", "started_at"),
        ("GET", "/api/search/rin?q=tea", "valid_at"),
        ("GET", "/api/user-state/rin/history?key=name", "at"),
    ],
)
def test_a_timestamp_past_its_length_is_refused(
    server: LiveServer, method: str, path: str, field: str
) -> None:
    """A date padded with spaces past the limit was read over HTTP (and refused over MCP)."""
    key = server.create_persona("rin")
    padded = "2026-03-01" + " " * MAX_TIMESTAMP_CHARS
    body = {"content": "tea"} if path.startswith("/api/memories") else {"session_id": "s1"}
    with server.client(key) as rin:
        if method == "POST":
            reply = rin.post(path, json={**body, field: padded})
        else:
            reply = rin.get(f"{path}&{field}={padded.replace(' ', '%20')}")
        error = refused(reply, 422)
    assert error["field"] == field, error
    assert error["message"] == (
        f"{field} must be at most {MAX_TIMESTAMP_CHARS} characters, got {len(padded)}"
    ), error


def test_a_date_range_past_its_length_is_refused(server: LiveServer) -> None:
    key = server.create_persona("rin")
    padded = "last week" + " " * MAX_DATE_RANGE_CHARS
    with server.client(key) as rin:
        error = refused(rin.get("/api/search/rin", params={"q": "tea", "date_range": padded}), 422)
    assert error["field"] == "date_range", error
    assert error["message"] == (
        f"date_range must be at most {MAX_DATE_RANGE_CHARS} characters, got {len(padded)}"
    ), error


def test_the_openapi_document_says_the_same_limits(server: LiveServer) -> None:
    with server.admin() as admin:
        spec = admin.get("/openapi.json").json()
    memory = spec["paths"]["/api/memories/{persona}/{key}"]["get"]["parameters"]
    assert next(p for p in memory if p["name"] == "key")["schema"]["maxLength"] == MAX_NAME_CHARS
    search = {
        p["name"]: p["schema"] for p in spec["paths"]["/api/search/{persona}"]["get"]["parameters"]
    }
    assert _string(search["valid_at"])["maxLength"] == MAX_TIMESTAMP_CHARS
    assert _string(search["date_range"])["maxLength"] == MAX_DATE_RANGE_CHARS
    new_memory = spec["components"]["schemas"]["MemoryCreate"]["properties"]["valid_from"]
    assert _string(new_memory)["maxLength"] == MAX_TIMESTAMP_CHARS
    imported = {
        p["name"]: p["schema"] for p in spec["paths"]["/api/import/{persona}"]["post"]["parameters"]
    }
    for name in ("user_name", "assistant_name"):
        assert _string(imported[name])["maxLength"] == MAX_SPEAKER_CHARS, name


def _string(schema: dict[str, object]) -> dict[str, object]:
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        return next(b for b in branches if b.get("type") == "string")
    return schema


def test_an_imported_speaker_past_its_length_is_told_with_its_count(server: LiveServer) -> None:
    """Over the import (and so the CLI's), a speaker too long said "must be a non-empty string
    (≤ 200 characters …)" of a non-empty string: the length refusal is the one wording."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        lines = exported_lines(rin, "rin")
    long_name = "K" * (MAX_SPEAKER_CHARS + 1)
    for record in lines:
        if record.get("type") == "event":
            record["speaker"] = long_name
    admin_key = server.create_persona("ren")
    with server.client(admin_key) as ren:
        error = refused(import_lines(ren, "ren", lines), 422)
    assert (
        f"speaker must be at most {MAX_SPEAKER_CHARS} characters, got {len(long_name)}"
        in (error["message"])
    ), error


def test_the_dashboards_name_field_checks_the_apis_pattern(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.signed_in(key) as page:
        html = page.get("/p/rin/blocks").text
    shown = re.search(r'name="block_name"[^>]* pattern="([^"]+)"', html)
    assert shown is not None, html[:500]
    assert shown.group(1) == NAME_PATTERN.strip("^$").replace("-]", "\\-]")
    assert str(MAX_NAME_CHARS) in shown.group(1)
