"""How MCP and the CLI mark a closed fact (``api/mcp/text.py``): a plan contradicted before it
began is said to have never held, not to have been "valid until" its planned start."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from memory_factory import a_memory

from omoide.api.http.dashboard.views import closure
from omoide.api.mcp.text import memory_text, past_mark
from omoide.api.render import render_memory

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


NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)
START = NOW + timedelta(days=90)


@pytest.mark.parametrize(
    ("valid_from", "valid_until", "never_held"),
    [
        pytest.param(START, START, True, id="empty-window-at-the-planned-start"),
        pytest.param(START, START - timedelta(seconds=1), True, id="inverted-window"),
        pytest.param(NOW - timedelta(days=9), NOW, False, id="held-then-ended"),
        pytest.param(None, NOW, False, id="no-start"),
        pytest.param(START, None, False, id="no-end"),
        pytest.param(None, None, False, id="no-window"),
    ],
)
def test_every_rendering_asks_the_model_whether_a_fact_never_held(
    valid_from: datetime | None, valid_until: datetime | None, never_held: bool
) -> None:
    """The model decides (``Memory.never_held``); the dashboard's mark, and MCP's and the CLI's
    text (from the rendered memory, the HTTP JSON), say the same."""
    memory = replace(_MEMORY, valid_from=valid_from, valid_until=valid_until)
    assert memory.never_held() is never_held
    page = closure(memory, NOW + timedelta(days=365))
    assert page is not None and page.never_held is never_held
    rendered = {**render_memory(memory), "current": False}
    assert ("never held" in past_mark(rendered)) is never_held
    assert ("never held" in memory_text(rendered)) is never_held


_MEMORY = a_memory(
    key="mem_plan",
    content="The user will move to Berlin in March.",
    created_at=NOW - timedelta(days=30),
    updated_at=NOW,
    superseded_by="mem_stay",
    strength=0.4,
)
