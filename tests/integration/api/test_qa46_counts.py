"""A count is said with its noun in the one way (``engine.counts.how_many``/``plural``): "1
turn", "2 turns" (qa46b). The dashboard's overview said "1 turns, 1 episodes", an import's end
record "counts 1 records", a turn "has unknown field(s) mood"; the dashboard's other counts, an
import's "other missing keys" and a retried upstream's attempts spelt their plurals by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.errors import InvalidInput
from omoide.service.event_input import check_event


def test_the_overview_says_one_turn_and_one_episode(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        turn = {"events": [{"speaker": "Ken", "content": "hello there"}]}
        assert rin.post("/api/sessions/rin/s1/events", json=turn).status_code == 200
    with server.signed_in(key) as page:
        shown = page.get("/p/rin").text
    assert "1 turn, 0 episodes" in shown, shown
    assert "1 turns" not in shown


def test_an_end_record_counting_one_record_says_one_record(server: LiveServer) -> None:
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
    held = len(records) - 2  # the records between the header and the end record
    edited = [{**r, "records": 1} if r["type"] == "end" else r for r in records]
    with server.client(server.create_persona("dst")) as client:
        error = refused(import_lines(client, "dst", edited), 422)
    said = f"the end record counts 1 record after the header but the file holds {held}"
    assert said in error["message"], error


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        pytest.param({"mood": 1}, "events[0] has unknown field 'mood'", id="one"),
        pytest.param({"a": 1, "b": 2}, "events[0] has unknown fields 'a', 'b'", id="two"),
        pytest.param({"x\u202e": 1}, "events[0] has unknown field 'x\\u202e'", id="quoted"),
    ],
)
def test_a_turns_unknown_fields_are_counted_and_named(extra: dict[str, int], said: str) -> None:
    event = {"speaker": "Ken", "content": "hi", **extra}
    with pytest.raises(InvalidInput) as caught:
        check_event(event, "events[0]", datetime(2026, 3, 1, tzinfo=UTC))
    assert caught.value.message == said
