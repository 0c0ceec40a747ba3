"""A search ranks its candidates from a few columns each (``rank_facts``) and reads whole only
the notes it returns; the ranking must be the one reading every candidate would give."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.embed.hashing import HashEmbedder
from omoide.model import Memory, NewMemory
from omoide.service.companion import Companion
from omoide.wiring import Omoide

FOODS = ["ramen", "sushi", "curry", "tea", "coffee", "pizza"]
PLACES = ["Tokyo", "Osaka", "Kyoto", "Nara", "Kobe"]


def fill(app: Omoide, persona: str, clock: FixedClock) -> list[str]:
    """60 notes of varied importance, stability, age and recall, a few closed by validity;
    some share their text (equal fused scores, ranked by strength, then key)."""
    rng = np.random.default_rng(11)
    news = []
    for i in range(60):
        food, place = FOODS[i % len(FOODS)], PLACES[i % len(PLACES)]
        text = f"User ate {food} in {place}" if i % 4 else f"User likes {food} from {place}"
        until = clock.now() - timedelta(days=1) if i % 9 == 0 else None
        news.append(
            NewMemory(
                content=text,
                importance=float(rng.choice([0.2, 0.5, 0.9])),
                created_at=clock.now() - timedelta(days=int(rng.integers(0, 300))),
                valid_until=until,
            )
        )
    store = app.store.memories(persona)
    vectors = app.embedder.embed_passages([n.content for n in news])
    made = store.insert_many(
        news, vectors, stabilities=list(rng.uniform(1, 30, 60)), now=clock.now()
    )
    ids = [store.id_of(m.key) for m in made[::5]]
    store.record_recalls(ids, now=clock.now(), factor=2.0, cap=365.0, min_interval_hours=0.0)
    return [m.key for m in made]


def test_rank_facts_agree_with_the_whole_rows(app: Omoide, persona: str, clock: FixedClock) -> None:
    keys = fill(app, persona, clock)
    store = app.store.memories(persona)
    store.tombstone(keys[3], now=clock.now())
    ids = [store.id_of(k) for k in keys]
    facts, whole = store.rank_facts(ids), store.by_ids(ids)
    assert facts.keys() == whole.keys()
    for row_id, memory in whole.items():
        fact = facts[row_id]
        assert (
            fact.key,
            fact.status,
            fact.importance,
            fact.stability,
            fact.created_at,
            fact.last_accessed,
            fact.superseded_by,
            fact.valid_until,
            fact.updated_at,
            fact.closed_since(),
        ) == (
            memory.key,
            memory.status,
            memory.importance,
            memory.stability,
            memory.created_at,
            memory.last_accessed,
            memory.superseded_by,
            memory.valid_until,
            memory.updated_at,
            memory.closed_since(),
        )
        assert fact.closed_at(clock.now()) == memory.closed_at(clock.now())
    assert facts[ids[3]].status == "tombstoned"
    assert store.rank_facts([]) == {}


def test_fewer_results_are_a_prefix_of_more(app: Omoide, persona: str, clock: FixedClock) -> None:
    """Up to top_k 10 the candidates are the same 50, so a smaller top_k must return the
    first notes of a larger one, with the same scores and similarities."""
    fill(app, persona, clock)
    for query in ("ramen in Tokyo", "coffee", "what food does the user like", "Kyoto"):

        def search(top_k: int, q: str = query) -> list[tuple[str, float, float | None]]:
            request = app.search.build_request(persona, query=q, top_k=top_k)
            return [
                (h.id, h.score, h.similarity)
                for h in app.search.search(persona, request, recall=False).results
            ]

        full = search(10)
        assert len(full) == 10
        for top_k in (1, 3, 7):
            assert search(top_k) == full[:top_k]


def test_a_hybrid_search_reads_each_row_whole_once(
    app: Omoide, persona: str, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The companion's texts and the returned notes come from one read of each row: the head
    the companion re-scores is not read again to show it (few candidates: every one is read
    whole; many: the ones returned)."""
    fill(app, persona, clock)
    app.search.companion = Companion("hash", HashEmbedder)
    read: list[int] = []
    handle = type(app.store.memories(persona))
    by_ids = handle.by_ids

    def counting(self: object, ids: Sequence[int]) -> dict[int, Memory]:
        read.extend(ids)
        return by_ids(self, ids)

    monkeypatch.setattr(handle, "by_ids", counting)
    for top_k in (3, 10, 40):
        read.clear()
        request = app.search.build_request(persona, query="ramen in Tokyo", top_k=top_k)
        hits = app.search.search(persona, request, recall=False).results
        assert len(hits) == top_k
        assert read and len(read) == len(set(read)), top_k
