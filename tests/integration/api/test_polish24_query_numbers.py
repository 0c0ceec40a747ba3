"""Session 24's probe: ``top_k=１０`` was refused while every date and the settings form read
full-width digits. A numeric query parameter now reads full-width digits and signs as ASCII;
text parameters reach the route as sent, and other scripts' digits stay refused. Real HTTP."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer


def test_full_width_numbers_in_the_query_read_as_ascii(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("Ken lives in Osaka.", "Ken likes tea.", "Ken plays chess."):
            assert rin.post("/api/memories/rin", json={"content": text}).status_code == 201
        asked = {"q": "Ken", "mode": "keyword"}
        plain = rin.get("/api/search/rin", params={**asked, "top_k": "2", "min_importance": "0.0"})
        wide = rin.get(
            "/api/search/rin", params={**asked, "top_k": "２", "min_importance": "０．０"}
        )
        assert plain.status_code == wide.status_code == 200, wide.text
        assert len(wide.json()["results"]) == 2
        assert wide.json()["results"] == plain.json()["results"]
        listed = rin.get("/api/memories/rin", params={"limit": "１", "offset": "　１　"})
        assert listed.status_code == 200, listed.text
        assert len(listed.json()["memories"]) == 1
        # a full-width minus is a minus: the bound is told, as for "-1" (not "not an integer")
        negative = rin.get("/api/memories/rin", params={"offset": "－１"})
        assert negative.status_code == 422, negative.text
        assert negative.json()["error"]["field"] == "offset"
        assert negative.json()["error"]["message"] == "offset must be at least 0, got -1"


def test_text_parameters_keep_their_full_width_digits(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        assert (
            rin.post(
                "/api/memories/rin", json={"content": "月８回 tea with Ken.", "kind": "fact"}
            ).status_code
            == 201
        )
        found = rin.get("/api/search/rin", params={"q": "８", "mode": "keyword", "top_k": "１"})
        assert found.status_code == 200, found.text
        assert found.json()["query"] == "８", found.json()  # the text as sent
        assert len(found.json()["results"]) == 1


@pytest.mark.parametrize("value", ["٣", "१०", "１０ｘ", "10x"])
def test_other_digits_stay_refused(server: LiveServer, value: str) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        refused = rin.get("/api/search/rin", params={"q": "tea", "top_k": value})
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["field"] == "top_k"
