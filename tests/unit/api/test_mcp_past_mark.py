"""How MCP and the CLI mark a closed fact (``api/mcp/text.py``): a plan contradicted before it
began is said to have never held, not to have been "valid until" its planned start."""

from __future__ import annotations

from omoide.api.mcp.text import memory_text, past_mark

PLAN_START = "2027-03-01T00:00:00+00:00"


def _rendered(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "key": "mem_plan",
        "kind": "fact",
        "status": "active",
        "content": "The user will move to Berlin in March.",
        "importance": 0.5,
        "strength": 0.4,
        "stability": 5.0,
        "access_count": 0,
        "tags": [],
        "created_at": "2026-11-01T09:00:00+00:00",
        "updated_at": "2026-12-01T09:00:00+00:00",
        "valid_from": PLAN_START,
        "valid_until": PLAN_START,
        "superseded_by": "mem_stay",
        "links": [],
        "current": False,
    }
    return {**base, **fields}


def test_a_plan_given_up_is_marked_as_never_held() -> None:
    mark = past_mark(_rendered())
    assert mark == (
        " [past: never held: cancelled before its planned start 2027-03-01 00:00, "
        "superseded by mem_stay]"
    )
    text = memory_text(_rendered())
    assert "never held: cancelled before its planned start 2027-03-01 00:00" in text
    assert "valid 2027-03-01" not in text


def test_a_fact_that_held_keeps_its_end() -> None:
    held = _rendered(valid_from="2026-01-01T00:00:00Z", valid_until="2026-12-01T09:00:00Z")
    assert past_mark(held) == " [past: valid until 2026-12-01 09:00, superseded by mem_stay]"
    assert "valid 2026-01-01 00:00 → 2026-12-01 09:00" in memory_text(held)
    assert past_mark(_rendered(current=True)) == ""
