"""One text, however it is written (session 13's probe, through real HTTP on both stores):
accented Latin letters match their plain letters in a keyword search on PostgreSQL as on
SQLite, and text in NFD (e + U+0301) is the same text as in NFC (é), stored once, in NFC."""

from __future__ import annotations

import json
import unicodedata

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines

NFC = "Ken met Zoë at the café in Málaga."
NFD = unicodedata.normalize("NFD", NFC)


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _found(client: httpx.Client, query: str, mode: str = "keyword") -> list[str]:
    reply = client.get(
        "/api/search/rin", params={"q": query, "mode": mode, "include_episodes": "true"}
    )
    assert reply.status_code == 200, reply.text
    return [hit["content"] for hit in reply.json()["results"]]


@pytest.mark.parametrize(
    "query", ["cafe", "CAFE", "café", _nfd("café"), "zoe", "Zoë", "malaga", "Málaga", "MÁLAGA"]
)
def test_a_keyword_search_folds_latin_accents_on_both_stores(rin: httpx.Client, query: str) -> None:
    """SQLite's tokenizer folds diacritics ("cafe" found "café"), PostgreSQL's English
    parser did not: "cafe", "zoe" and "malaga" found nothing there."""
    assert rin.post("/api/memories/rin", json={"content": NFC}).status_code == 201
    assert _found(rin, query) == [NFC]


def test_accents_of_other_scripts_are_not_folded(rin: httpx.Client) -> None:
    """Only Latin letters lose their marks: ガ is not カ (kana voicing), as SQLite keeps it."""
    assert rin.post("/api/memories/rin", json={"content": "ケンはガスを止めた"}).status_code == 201
    assert _found(rin, "ガス") and not _found(rin, "カス")


def test_text_in_nfd_is_stored_once_in_nfc(rin: httpx.Client) -> None:
    """The same memory sent in NFD after NFC was stored a second time (an exact comparison
    saw two texts), and a search in one form missed text stored in the other."""
    first = rin.post("/api/memories/rin", json={"content": NFC, "tags": ["café"]})
    assert first.status_code == 201, first.text
    again = rin.post("/api/memories/rin", json={"content": NFD, "tags": [_nfd("café")]})
    assert again.status_code in (200, 201), again.text
    listed = rin.get("/api/memories/rin").json()
    contents = [m["content"] for m in listed["memories"]]
    assert contents == [NFC], listed
    assert listed["memories"][0]["tags"] == ["café"]
    assert _found(rin, "Zoë", mode="hybrid") == [NFC]
    tagged = rin.get("/api/search/rin", params={"q": "Málaga", "tags": _nfd("café")}).json()
    assert [hit["content"] for hit in tagged["results"]] == [NFC], tagged


def test_nfd_reaches_every_kind_of_text_as_nfc(rin: httpx.Client) -> None:
    """Events, blocks, state values and metadata (keys too) are kept in NFC."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    assert (
        rin.post(
            "/api/memories/rin",
            json={"content": "Ken flew south.", "metadata": {_nfd("été"): _nfd("Málaga")}},
        ).status_code
        == 201
    )
    assert (
        rin.post(
            "/api/sessions/rin/s1/events",
            json={"events": [{"speaker": _nfd("Zoë"), "content": _nfd("Le café était fermé.")}]},
        ).status_code
        == 200
    )
    assert (
        rin.post(
            "/api/blocks/rin", json={"block_name": "b1", "content": _nfd("Crème brûlée")}
        ).status_code
        == 200
    )
    assert rin.put("/api/user-state/rin", json={"name": _nfd("Zoë")}).status_code == 200
    text = rin.get("/api/export/rin").text
    assert unicodedata.is_normalized("NFC", text), [
        line for line in text.splitlines() if not unicodedata.is_normalized("NFC", line)
    ]
    for word in ("Le café était fermé.", "Crème brûlée", "Zoë", "Málaga", "été"):
        assert word in text, word
    assert any("Zoë: Le café était fermé." in hit for hit in _found(rin, "etait"))


def test_two_keys_that_are_one_once_normalised_are_refused(rin: httpx.Client) -> None:
    body = '{"content": "tea", "metadata": {"caf\\u00e9": 1, "cafe\\u0301": 2}}'
    reply = rin.post(
        "/api/memories/rin", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert reply.status_code == 422, reply.text
    assert "twice" in reply.json()["error"]["message"]
    assert rin.get("/api/memories/rin").json()["memories"] == []


def test_an_import_in_nfd_is_kept_in_nfc(server: LiveServer, rin: httpx.Client) -> None:
    lines = exported_lines(rin, "rin")
    for line in lines:
        if line.get("kind") == "memory" or "content" in line:
            line["content"] = _nfd("Zoë drinks café au lait.")
    key = server.create_persona("kai")
    with server.client(key) as kai:
        reply = import_lines(kai, "kai", lines)
        assert reply.status_code == 200, reply.text
        text = kai.get("/api/export/kai").text
        assert "Zoë drinks café au lait." in text and unicodedata.is_normalized("NFC", text)
        assert json.loads(text.splitlines()[0])  # still an export
