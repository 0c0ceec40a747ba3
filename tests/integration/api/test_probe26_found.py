"""Session 26's hand probe: what a hostile client found, each through real HTTP."""

from __future__ import annotations

import gzip
import json

import pytest
from omoide_testing import LiveServer

NDJSON = {"content-type": "application/x-ndjson"}


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        ("state", "kind", ["user"]),
        ("memory", "kind", {"fact": 1}),
        ("memory", "status", ["active"]),
        ("session", "ended_by", ["idle"]),
    ],
)
def test_a_list_or_object_in_a_field_of_fixed_words_is_a_422(
    server: LiveServer, kind: str, field: str, value: object
) -> None:
    """An export line whose ``kind``, ``status`` or ``ended_by`` held a list or an object raised
    TypeError (unhashable) in the format check: a 500. It is refused naming the line."""
    with server.client(server.create_persona("rin")) as rin:
        assert rin.post("/api/memories/rin", json={"content": "Ken drinks tea."}).status_code == 201
        assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
        assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        assert rin.post("/api/sessions/rin/s1/end").status_code == 200
        records = [json.loads(line) for line in rin.get("/api/export/rin").text.splitlines()]
    number = next(i for i, r in enumerate(records, start=1) if r["type"] == kind)
    records[number - 1][field] = value
    body = "".join(json.dumps(r) + "\n" for r in records).encode()
    with server.client(server.create_persona("kai")) as kai:
        reply = kai.post("/api/import/kai", content=body, headers=NDJSON)
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["message"].startswith(f"line {number}: {kind} record: {field} must be one of")
        assert kai.get("/api/memories/kai").json()["memories"] == []


@pytest.mark.parametrize("coding", ["gzip", "br", "GZIP, identity"])
def test_a_compressed_body_is_told_to_be_sent_uncompressed(server: LiveServer, coding: str) -> None:
    """A gzip body (Content-Encoding: gzip) was read as text: "request body: not UTF-8 (byte
    1)", which did not say why. The API reads bodies as sent, and says so; the file import,
    which reads its body as a stream, alike. ``identity`` is no encoding."""
    packed = gzip.compress(b'{"content": "Ken drinks tea."}')
    with server.client(server.create_persona("rin")) as rin:
        for path, kind in (
            ("/api/memories/rin", "application/json"),
            ("/api/import/rin", "application/x-ndjson"),
        ):
            reply = rin.post(
                path, content=packed, headers={"content-type": kind, "content-encoding": coding}
            )
            assert reply.status_code == 422, (path, reply.text)
            assert reply.json()["error"]["message"] == (
                f'the request body is sent with Content-Encoding "{coding}", which this server '
                "does not decode: send it uncompressed, without that header"
            )
        plain = rin.post(
            "/api/memories/rin",
            json={"content": "Ken drinks tea."},
            headers={"content-encoding": "identity"},
        )
        assert plain.status_code == 201, plain.text
        assert (
            rin.post(
                "/api/memories/nobody", content=packed, headers={"content-encoding": coding}
            ).status_code
            == 403
        )  # who may ask comes first


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
@pytest.mark.parametrize("shape", ["openai", "chatgpt", "claude"])
def test_a_chat_time_past_the_calendar_in_utc_is_a_422(
    server: LiveServer, when: str, shape: str
) -> None:
    """A chat file's time on the calendar's first or last day with an offset that carries it
    past year 1 or 9999 in UTC raised OverflowError while read (peer_formats.foreign_time): a
    500. It is kept as written and refused as any time outside the years the API reads."""
    turn = {
        "openai": [{"role": "user", "content": "hi", "timestamp": when}],
        "chatgpt": [
            {
                "mapping": {
                    "a": {
                        "message": {
                            "author": {"role": "user"},
                            "content": {"parts": ["hi"]},
                            "create_time": when,
                        }
                    }
                }
            }
        ],
        "claude": [
            {"uuid": "c1", "chat_messages": [{"sender": "human", "text": "hi", "created_at": when}]}
        ],
    }[shape]
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "chat"},
            content=json.dumps(turn).encode(),
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        assert when in reply.json()["error"]["message"]
        assert rin.get("/api/sessions/rin").json()["sessions"] == []


@pytest.mark.parametrize("key_id", ["1_0", "%2B2", "٢"])
def test_a_key_id_in_the_path_that_is_no_json_number_is_a_422(
    server: LiveServer, key_id: str
) -> None:
    """``DELETE /api/personas/rin/keys/1_0`` revoked key 10 (``int()`` reads underscores, as
    the query's ``top_k=1_0`` was read before): a number in the path is read as the query's
    numbers are, after who may ask."""
    server.create_persona("rin")
    with server.admin() as admin:
        for _ in range(11):
            assert admin.post("/api/personas/rin/keys").status_code == 201
        reply = admin.delete(f"/api/personas/rin/keys/{key_id}")
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"]["field"] == "key_id"
        if key_id == "1_0":
            assert reply.json()["error"]["message"] == (
                "path parameter 'key_id' must be an integer written with the digits 0-9 (as in "
                'JSON: e.g. 5 or 300), got "1_0"'
            )
        assert all(
            k["revoked_at"] is None for k in admin.get("/api/personas/rin/keys").json()["keys"]
        )
        assert admin.delete("/api/personas/nobody/keys/1_0").status_code == 404
    with server.client("omo_p_wrong") as stranger:
        assert stranger.delete(f"/api/personas/rin/keys/{key_id}").status_code == 401
