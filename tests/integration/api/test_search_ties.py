"""Results whose scores tie (as shown) come in one order on both stores: the order the
memories were written in (session 13's probe, through real HTTP)."""

from __future__ import annotations

from omoide_testing import LiveServer

WORDS = ("apple", "brick", "cloud", "dunes", "eagle", "flute", "grape", "house")


def test_tied_results_come_in_the_order_they_were_written_on_both_stores(
    server: LiveServer,
) -> None:
    """Six notes that a keyword search scores alike were listed by their random keys, so the
    same writes gave another order on each store (and on each run)."""
    key = server.create_persona("rin")
    with server.client(key) as client:
        for word in WORDS:
            made = client.post("/api/memories/rin", json={"content": f"tea {word}"})
            assert made.status_code == 201, made.text
        for mode in ("keyword", "hybrid"):
            reply = client.get("/api/search/rin", params={"q": "tea", "mode": mode, "top_k": 20})
            assert reply.status_code == 200, reply.text
            results = reply.json()["results"]
            if mode == "keyword":
                assert len({hit["score"] for hit in results}) == 1, results
                assert [hit["content"] for hit in results] == [f"tea {w}" for w in WORDS]
            else:  # scores differ by meaning; equal ones keep the written order
                shown = [(-hit["score"], WORDS.index(hit["content"][4:])) for hit in results]
                assert shown == sorted(shown), results
