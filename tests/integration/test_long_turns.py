"""A turn or memory near the 50,000-character limit is stored and found by a word near its end,
on both stores (PostgreSQL derived its trigrams in quadratic time: 30 s for one such turn), and
only for its own persona: English prose (words) and Japanese prose, which has no spaces (its
long terms match by trigrams)."""

from __future__ import annotations

import pytest

from omoide.wiring import Omoide

LENGTH = 48_000
AT = 45_000  # where the distinctive word goes
PROSE = {
    "english": (
        "The river ran past the old mill where my grandmother baked bread every Sunday "
        "morning, and we watched the boats from the kitchen window. "
    ),
    "japanese": "昨日は雨が降っていたので、私は家で本を読みながらお茶を飲んで過ごしました。",
}
WORD = {"english": "zanzibarquokka", "japanese": "鳳凰堂参拝記念"}


def long_text(kind: str) -> str:
    filler = PROSE[kind] * (LENGTH // len(PROSE[kind]) + 1)
    return (filler[:AT] + f" {WORD[kind]} " + filler[AT:])[:LENGTH]


@pytest.fixture
def others(app: Omoide, persona: str) -> str:
    app.auth.create_persona("kai")
    return "kai"


@pytest.mark.parametrize("kind", ["english", "japanese"])
def test_a_long_turn_is_found_by_a_word_near_its_end(
    app: Omoide, persona: str, others: str, kind: str
) -> None:
    text = long_text(kind)
    assert len(text) == LENGTH and text.index(WORD[kind]) >= AT
    app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona, "s1", [{"speaker": "u", "content": text}, {"speaker": "p", "content": PROSE[kind]}]
    )
    hits = app.store.sessions(persona).keyword_events(WORD[kind], limit=5)
    turns = app.store.sessions(persona).events_by_ids([h.rowid for h in hits])
    assert [turns[h.rowid].content for h in hits] == [text]
    assert app.store.sessions(others).keyword_events(WORD[kind], limit=5) == []


@pytest.mark.parametrize("kind", ["english", "japanese"])
def test_a_long_memory_is_found_by_a_word_near_its_end(
    app: Omoide, persona: str, others: str, kind: str
) -> None:
    text = long_text(kind)
    made = app.memories.create(persona, app.memories.build_new(content=text))
    assert made.status == "created"
    for who, expected in ((persona, [made.memory.key]), (others, [])):
        request = app.search.build_request(who, query=WORD[kind], mode="keyword")
        assert [h.id for h in app.search.search(who, request, recall=False).results] == expected
