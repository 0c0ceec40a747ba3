"""Found by hand in session 13's second probe, through real HTTP on both stores."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from omoide_testing import LiveServer


@pytest.fixture
def mio(server: LiveServer) -> Iterator[httpx.Client]:
    key = server.create_persona("mio")
    with server.client(key) as client:
        assert client.post("/api/sessions/mio", json={"session_id": "s1"}).status_code in (200, 201)
        yield client


def _post(client: httpx.Client, *events: dict[str, str]) -> httpx.Response:
    return client.post("/api/sessions/mio/s1/events", json={"events": list(events)})


def test_a_different_turn_under_a_used_external_id_is_refused(mio: httpx.Client) -> None:
    """A second turn reusing an external_id with other content was counted as a duplicate and
    its text dropped (200, 'duplicates': 1): a lost turn. A retry of the same turn stays a
    duplicate; another turn under the id is a 409 naming it, and nothing of its batch is
    written."""
    first = {"speaker": "Ken", "content": "I moved to Sapporo.", "external_id": "m-1"}
    assert _post(mio, first).json()["accepted"] == 1
    retry = _post(mio, first)
    assert retry.status_code == 200 and retry.json() == {
        **retry.json(),
        "accepted": 0,
        "duplicates": 1,
    }, retry.text
    other = _post(
        mio,
        {"speaker": "Ken", "content": "Something new.", "external_id": "m-2"},
        {"speaker": "Ken", "content": "I moved to Otaru.", "external_id": "m-1"},
    )
    assert other.status_code == 409, other.text
    error = other.json()["error"]
    assert error["code"] == "conflict" and "m-1" in error["message"], error
    assert "another turn in session 's1'" in error["message"], error
    assert error.get("field") == "events[1].external_id", error
    again = _post(mio, {"speaker": "Ken", "content": "Something new.", "external_id": "m-2"})
    assert again.json()["accepted"] == 1, "the refused batch wrote its first turn"
    speaker = _post(mio, {"speaker": "Aya", "content": "I moved to Sapporo.", "external_id": "m-1"})
    assert speaker.status_code == 409, speaker.text
    role = _post(
        mio,
        {
            "speaker": "Ken",
            "role": "assistant",
            "content": "I moved to Sapporo.",
            "external_id": "m-1",
        },
    )
    assert role.status_code == 409, role.text


def test_two_different_turns_under_one_external_id_in_a_batch_are_refused(
    mio: httpx.Client,
) -> None:
    same = {"speaker": "Ken", "content": "Hello.", "external_id": "b-1"}
    twice = _post(mio, same, same)
    assert twice.json()["accepted"] == 1 and twice.json()["duplicates"] == 1, twice.text
    clash = _post(
        mio,
        {"speaker": "Ken", "content": "One.", "external_id": "b-2"},
        {"speaker": "Ken", "content": "Two.", "external_id": "b-2"},
    )
    assert clash.status_code == 409 and "b-2" in clash.json()["error"]["message"], clash.text
    # the turn it clashes with is the batch's own, not one the session holds
    assert "earlier in this batch (events[0])" in clash.json()["error"]["message"], clash.text
    assert clash.json()["error"]["field"] == "events[1].external_id"
    assert (
        _post(mio, {"speaker": "Ken", "content": "One.", "external_id": "b-2"}).json()["accepted"]
        == 1
    )
