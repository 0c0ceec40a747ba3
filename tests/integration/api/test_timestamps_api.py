"""A time of day without its UTC offset is refused on every field that takes a user timestamp
(session 12 probe), through real HTTP on both stores: "2026-05-01T09:00:00" was read as UTC
silently, nine hours off for a client in Tokyo. The 422 names the field and shows the forms that
are accepted; nothing is written. A date alone, "Z" and "±HH:MM" are accepted as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

NAIVE = "2026-11-29T09:00:00"


@pytest.fixture
def rin(server: LiveServer) -> Iterator[httpx.Client]:
    key = server.create_persona("rin")
    with server.client(key) as client:
        assert client.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        yield client


def says_offset(error: dict[str, object], field: str) -> None:
    assert error["field"] == field, error
    message = str(error["message"])
    assert "no UTC offset" in message and NAIVE in message, message
    assert "Z" in message and "+09:00" in message, message  # shows what is accepted


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "Ken moved.", "valid_from": NAIVE},
            "valid_from",
            id="create-valid_from",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "Ken moved.", "valid_until": NAIVE},
            "valid_until",
            id="create-valid_until",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin",
            {"session_id": "s2", "started_at": NAIVE},
            "started_at",
            id="session-started_at",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "Ken", "content": "hi", "timestamp": NAIVE}]},
            "events[0].timestamp",
            id="event-timestamp",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "Ken", "content": "hi", "timestamp": NAIVE[:16]}]},
            "events[0].timestamp",
            id="event-timestamp-minutes",
        ),
    ],
)
def test_a_body_time_without_offset_is_refused_naming_the_field(
    rin: httpx.Client, method: str, path: str, body: dict[str, object], field: str
) -> None:
    reply = rin.request(method, path, json=body)
    error = refused(reply, 422)
    if field == "events[0].timestamp" and body["events"][0]["timestamp"] != NAIVE:  # type: ignore[index]
        assert error["field"] == field and "no UTC offset" in error["message"], error
    else:
        says_offset(error, field)
    kinds = [json.loads(line)["type"] for line in rin.get("/api/export/rin").text.splitlines()]
    assert sorted(set(kinds) - {"header", "settings", "end"}) == ["session"], kinds
    assert kinds.count("session") == 1, kinds


def test_a_patch_and_the_filters_refuse_a_time_without_offset(rin: httpx.Client) -> None:
    made = rin.post("/api/memories/rin", json={"content": "Ken lives in Osaka."})
    key = made.json()["memory"]["key"]
    says_offset(
        refused(rin.patch(f"/api/memories/rin/{key}", json={"valid_until": NAIVE}), 422),
        "valid_until",
    )
    assert rin.get(f"/api/memories/rin/{key}").json()["valid_until"] is None
    says_offset(
        refused(rin.get("/api/search/rin", params={"q": "Osaka", "valid_at": NAIVE}), 422),
        "valid_at",
    )
    says_offset(
        refused(rin.get("/api/user-state/rin/history", params={"key": "name", "at": NAIVE}), 422),
        "at",
    )
    error = refused(
        rin.get(
            "/api/search/rin", params={"q": "Osaka", "date_range": f"{NAIVE}..2026-11-30T09:00:00Z"}
        ),
        422,
    )
    assert error["field"] == "date_range" and "no UTC offset" in error["message"], error


def test_the_accepted_forms_still_read_alike(rin: httpx.Client) -> None:
    """Z, +00:00 and +09:00 name instants (a lower-case t and z too, as RFC 3339 allows and
    the date ranges read them); a date alone is that day at 00:00 UTC."""
    for n, (stamp, stored) in enumerate(
        [
            (f"{NAIVE}Z", "2026-11-29T09:00:00"),
            (f"{NAIVE}+09:00", "2026-11-29T00:00:00"),
            ("2026-11-29", "2026-11-29T00:00:00"),
            (f"{NAIVE.replace('T', 't')}z", "2026-11-29T09:00:00"),
        ]
    ):
        made = rin.post(
            "/api/memories/rin",
            json={"content": f"Ken's shelf {n} holds tea.", "valid_from": stamp},
        )
        assert made.status_code == 201, made.text
        assert made.json()["memory"]["valid_from"].startswith(stored), made.json()
    assert (
        rin.get(
            "/api/search/rin",
            params={
                "q": "Ken",
                "valid_at": f"{NAIVE}Z",
                "date_range": "2026-11-29T00:00Z..2026-11-30",
            },
        ).status_code
        == 200
    )


def test_an_import_refuses_a_record_time_without_offset(
    server: LiveServer, rin: httpx.Client
) -> None:
    lines = exported_lines(rin, "rin")
    target = next(i for i, r in enumerate(lines) if r["type"] == "memory")
    lines[target]["valid_from"] = NAIVE
    server.create_persona("copy")
    with server.admin() as admin:
        error = refused(import_lines(admin, "copy", lines), 422)
        assert error["message"].startswith(f"line {target + 1}: memory record: "), error
        assert "no UTC offset" in error["message"] and error["field"] == "valid_from", error
        assert admin.get("/api/stats/copy").json()["total"] == 0


@pytest.mark.parametrize(
    ("source", "body", "says"),
    [
        pytest.param(
            "mem0",
            [
                {"memory": "Ken drinks tea.", "created_at": "2026-11-01T08:00:00Z"},
                {"memory": "Ken moved.", "created_at": NAIVE},
            ],
            "no UTC offset",
            id="mem0-naive",
        ),
        pytest.param(
            "mem0",
            [{"memory": "Ken moved.", "created_at": "last tuesday"}],
            "not a valid ISO-8601",
            id="mem0-unreadable",
        ),
        pytest.param(
            "chat",
            [
                {"role": "user", "content": "hi", "timestamp": "2026-11-01T08:00Z"},
                {"role": "assistant", "content": "hello", "timestamp": NAIVE},
            ],
            "no UTC offset",
            id="chat-turn-naive",
        ),
        pytest.param(
            "chat",
            [
                {
                    "uuid": "c1",
                    "name": "t",
                    "created_at": NAIVE,
                    "chat_messages": [
                        {
                            "uuid": "m1",
                            "sender": "human",
                            "text": "hi",
                            "created_at": "2026-11-01T08:00Z",
                        }
                    ],
                }
            ],
            "no UTC offset",
            id="claude-conversation-naive",
        ),
    ],
)
def test_a_foreign_import_refuses_a_time_without_offset(
    rin: httpx.Client, source: str, body: object, says: str
) -> None:
    """A foreign file's time without an offset was read as UTC, and one that could not be read
    was dropped for the time of the import; both are refused naming the record now."""
    error = refused(rin.post("/api/import/rin", params={"source": source}, json=body), 422)
    assert says in error["message"], error
    assert rin.get("/api/stats/rin").json()["total"] == 0
    kinds = [json.loads(line)["type"] for line in rin.get("/api/export/rin").text.splitlines()]
    assert kinds.count("session") == 1 and "event" not in kinds, kinds


def test_a_leap_second_is_accepted_and_a_false_second_60_refused_saying_why(
    rin: httpx.Client,
) -> None:
    """'23:59:60Z' (RFC 3339's leap second) was refused as 'no such day or time'; it is kept
    as 23:59:59.999999 UTC. A second 60 at another time is refused naming leap seconds."""
    made = rin.post(
        "/api/memories/rin",
        json={"content": "Ken saw the new year in.", "valid_from": "2016-12-31T23:59:60Z"},
    )
    assert made.status_code == 201, made.text
    assert made.json()["memory"]["valid_from"].startswith("2016-12-31T23:59:59.999999")
    turn = rin.post(
        "/api/sessions/rin/s1/events",
        json={
            "events": [
                {
                    "speaker": "Ken",
                    "content": "Happy new year!",
                    "timestamp": "2017-01-01T08:59:60+09:00",
                }
            ]
        },
    )
    assert turn.status_code == 200 and turn.json()["accepted"] == 1, turn.text
    bad = rin.post(
        "/api/sessions/rin/s1/events",
        json={
            "events": [{"speaker": "Ken", "content": "Lunch.", "timestamp": "2016-12-31T12:30:60Z"}]
        },
    )
    assert bad.status_code == 422, bad.text
    assert bad.json()["error"]["field"] == "events[0].timestamp"
    assert "leap second" in bad.json()["error"]["message"]
