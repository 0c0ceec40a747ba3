"""What a search's ``date_range`` refusal says, through real HTTP (schema26)."""

from __future__ import annotations

from omoide_testing import LiveServer


def test_year_1_is_a_range_in_a_zone_east_of_utc(server: LiveServer) -> None:
    """``date_range=0001`` for a persona in Asia/Tokyo was "not a valid calendar date" (its
    midnight is in year 0 in UTC) while UTC and zones west of it read it; it starts at the
    first instant, as 9999 ends at the last."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        assert rin.put("/api/settings/rin", json={"timezone": "Asia/Tokyo"}).status_code == 200
        assert rin.post("/api/memories/rin", json={"content": "Ken drinks tea."}).status_code == 201
        for text in ("0001", "0001..9999", "0001-01-01T00:00+09:00..9999"):
            reply = rin.get("/api/search/rin", params={"q": "tea", "date_range": text})
            assert reply.status_code == 200, (text, reply.text)
        assert [
            h["content"]
            for h in rin.get(
                "/api/search/rin", params={"q": "tea", "date_range": "0001..9999"}
            ).json()["results"]
        ] == ["Ken drinks tea."]


def test_a_lone_instant_or_a_bad_day_is_told_what_to_send(server: LiveServer) -> None:
    """A single timestamp was "is empty"; an impossible day named the whole text only."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text, says in (
            (
                "2026-03-01T09:00Z",
                "is a single instant, a range without time in it: give a start and an end, A..B",
            ),
            ("2026-03-15..2026-03-01", "ends before it starts: give the earlier end first"),
            (
                "2026-02-30..2026-03-02",
                '"2026-02-30" is not a valid calendar date (a month 01-12, a day that month has',
            ),
        ):
            reply = rin.get("/api/search/rin", params={"q": "tea", "date_range": text})
            assert reply.status_code == 422, reply.text
            error = reply.json()["error"]
            assert error["field"] == "date_range" and says in error["message"], error


def test_a_range_whose_end_lies_wholly_before_its_start_is_told_reversed(
    server: LiveServer,
) -> None:
    """Session 45: ``2027..2026`` and ``2026-03-02..2026-03-01`` (B the unit just before A)
    were refused as "a single instant, a range without time in it" (A to the end of B is
    empty); they are reversed, as ``2026-03-15..2026-03-01`` is told. ``2026-06..2026`` (A
    inside B, to B's end) is still a range."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("2027..2026", "2026-03-02..2026-03-01", "2026-04..2026-03"):
            reply = rin.get("/api/search/rin", params={"q": "tea", "date_range": text})
            assert reply.status_code == 422, reply.text
            error = reply.json()["error"]
            assert error["field"] == "date_range", error
            assert error["message"].startswith(
                f'date range "{text}" ends before it starts: give the earlier end first'
            ), error
        reply = rin.get("/api/search/rin", params={"q": "tea", "date_range": "2026-06..2026"})
        assert reply.status_code == 200, reply.text
