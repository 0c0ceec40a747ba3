"""A turn's ``external_id`` of only whitespace (``"   "``) was stored while every other blank
text is refused: it is refused in the same words (an import of an older export holding one
still reads it, as absent: ``interop/test_blank_external_id``)."""

from __future__ import annotations

import httpx
import pytest

BLANK = "must not be empty or whitespace, nor only invisible characters"


@pytest.mark.parametrize(
    "blank", [pytest.param("   ", id="spaces"), pytest.param("\u3000", id="ideographic-space")]
)
def test_a_blank_external_id_is_refused_like_other_blank_text(
    rin: httpx.Client, blank: str
) -> None:
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    reply = rin.post(
        "/api/sessions/rin/s1/events",
        json={"events": [{"speaker": "Ken", "content": "hello", "external_id": blank}]},
    )
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["message"] == f"events[0].external_id {BLANK}"
    assert error["field"] == "events[0].external_id"
    kept = rin.post(
        "/api/sessions/rin/s1/events",
        json={"events": [{"speaker": "Ken", "content": "hello", "external_id": " m1 "}]},
    )
    assert kept.status_code in (200, 201), kept.text  # an id with text around spaces is an id
