"""Session 23's probe: ``date_range`` read full-width digits (NFKC) while ``valid_at`` refused
them. Every date the API reads now follows one rule: full-width digits, letters and signs are
read as ASCII. Through real HTTP on both stores."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

WIDE_DAY = "２０２６－０３－０１"
WIDE_TIME = "２０２６－０３－０１Ｔ０９：００：００＋０９：００"


@pytest.mark.parametrize(
    "param, wide, ascii_",
    [
        ("valid_at", WIDE_DAY, "2026-03-01"),
        ("valid_at", WIDE_TIME, "2026-03-01T09:00:00+09:00"),
        ("date_range", f"{WIDE_DAY}..{WIDE_DAY}", "2026-03-01..2026-03-01"),
    ],
)
def test_a_full_width_date_reads_as_its_ascii_form_in_a_search(
    server: LiveServer, param: str, wide: str, ascii_: str
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        assert (
            rin.post(
                "/api/memories/rin", json={"content": "Ken lives in Osaka.", "kind": "fact"}
            ).status_code
            == 201
        )
        asked = {"q": "Osaka", "mode": "keyword"}
        plain = rin.get("/api/search/rin", params={**asked, param: ascii_})
        wide_reply = rin.get("/api/search/rin", params={**asked, param: wide})
        assert plain.status_code == wide_reply.status_code == 200, wide_reply.text
        assert [r["key"] for r in wide_reply.json()["results"]] == [
            r["key"] for r in plain.json()["results"]
        ]


def test_a_full_width_validity_window_is_stored_as_its_ascii_form(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        made = rin.post(
            "/api/memories/rin", json={"content": "Ken lives in Osaka.", "valid_from": WIDE_TIME}
        )
        assert made.status_code == 201, made.text
        assert made.json()["memory"]["valid_from"].startswith("2026-03-01T00:00:00"), made.text
        # what is not a date stays refused, naming the field and the text as sent
        refused = rin.get("/api/search/rin", params={"q": "Osaka", "valid_at": "２０２６ー０３"})
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["field"] == "valid_at" and "２０２６ー０３" in error["message"], error
