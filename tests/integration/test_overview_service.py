"""The dashboard's read-only service on a real SQLite file: summaries, keyset pages, sessions,
jobs and their retry."""

from __future__ import annotations

import pytest

from omoide.clock import FixedClock
from omoide.errors import InvalidInput, NotFound
from omoide.wiring import Omoide


def _add(app: Omoide, persona: str, content: str) -> str:
    outcome = app.memories.create(persona, app.memories.build_new(content=content))
    assert outcome.memory is not None
    return outcome.memory.key


def test_memory_pages_cover_every_memory_once_newest_first(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    keys = []
    for i in range(7):
        keys.append(_add(app, persona, f"memory number {i} about topic {i * 13}"))
        if i % 3:  # some share a timestamp: the id breaks the tie
            clock.advance(minutes=1)
    app.memories.delete(persona, keys[3])
    seen, cursor = [], None
    while True:
        page = app.overview.memory_page(persona, before=cursor, limit=2)
        seen += [m.key for m in page.memories]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [k for k in reversed(keys) if k != keys[3]]
    everything = app.overview.memory_page(persona, limit=50, include_deleted=True)
    assert [m.key for m in everything.memories] == list(reversed(keys))
    assert everything.next_cursor is None


def test_filtered_memory_pages_cover_every_match_once_newest_first(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """The dashboard's list with filters and no query: each page holds the newest matches."""
    tagged = []
    for i in range(20):
        made = app.memories.create(
            persona,
            app.memories.build_new(
                content=f"memory number {i} about topic {i * 13}",
                tags=["bees"] if i % 3 == 0 else ["other"],
                kind="fact" if i % 2 else "note",
            ),
        )
        assert made.memory is not None
        if i % 3 == 0:
            tagged.append(made.memory.key)
        clock.advance(minutes=1)
    app.memories.delete(persona, tagged[1])  # a filter, as a search, leaves deleted ones out
    filters = app.search.build_filters(persona, tags=["bees"])
    seen, cursor = [], None
    while True:
        page = app.overview.memory_page(persona, before=cursor, limit=2, filters=filters)
        seen += [m.key for m in page.memories]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [k for k in reversed(tagged) if k != tagged[1]]
    both = app.search.build_filters(persona, tags=["bees"], kind="fact")
    keys = [m.key for m in app.overview.memory_page(persona, filters=both).memories]
    assert keys and all(app.memories.get(persona, k, recall=False).kind == "fact" for k in keys)
    none = app.search.build_filters(persona, date_range="1999")
    assert app.overview.memory_page(persona, filters=none).memories == []


def test_a_filtered_page_costs_what_an_unfiltered_page_costs(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """A filter on the dashboard's list read every active id of the persona (the ids a filter
    allows, then the list a batch of 1,000 at a time until enough passed: a rare tag on a large
    persona read them all, in Python). The filter is now part of the page's query, on both
    stores: the same statements as an unfiltered page."""
    rare = _add(app, persona, "the only memory about the lighthouse keeper")
    app.memories.update(persona, rare, tags=["rare"])
    for i in range(12):
        clock.advance(minutes=1)
        _add(app, persona, f"memory number {i} about topic {i * 13}")
    filters = app.search.build_filters(persona, tags=["rare"])
    with app.store.db.trace() as plain:
        app.overview.memory_page(persona, limit=2)
    with app.store.db.trace() as filtered:
        page = app.overview.memory_page(persona, limit=2, filters=filters)
    assert [m.key for m in page.memories] == [rare] and page.next_cursor is None
    assert len(filtered) == len(plain), filtered


@pytest.mark.parametrize("cursor", ["junk", "2026-11-30T09:00:00+00:00~x", "~12"])
def test_memory_page_refuses_a_malformed_cursor(app: Omoide, persona: str, cursor: str) -> None:
    with pytest.raises(InvalidInput):
        app.overview.memory_page(persona, before=cursor)


def test_summaries_count_active_closed_deleted_and_queue(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.auth.create_persona("kai")
    old = _add(app, persona, "The user lives in Tokyo.")
    gone = _add(app, persona, "A note to delete.")
    app.memories.update(persona, old, valid_until=clock.now())
    app.memories.delete(persona, gone)
    _add(app, "kai", "Kai's note.")
    by_name = {s.name: s for s in app.overview.persona_summaries()}
    rin = by_name[persona]
    assert (rin.active, rin.closed, rin.tombstoned, rin.episodes) == (1, 1, 1, 0)
    assert rin.queue == 2  # the two evolution jobs (no worker runs here)
    assert rin.last_activity == clock.now()
    assert by_name["kai"].active == 1 and by_name["kai"].closed == 0
    assert app.overview.persona_summary(persona) == rin


def test_retry_puts_a_failed_job_back_only_for_its_persona(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.auth.create_persona("kai")
    persona_id = app.store.get_persona(persona).id
    job_id = app.jobs.enqueue(
        kind="memory.evolve",
        persona_id=persona_id,
        payload={"key": "mem_gone"},
        now=clock.now(),
        max_attempts=1,
    )
    job = app.jobs.claim(now=clock.now())
    assert job is not None and job.id == job_id
    app.jobs.fail(job, "NotFound: no memory 'mem_gone'", now=clock.now(), backoff_s=1)
    [failed] = app.overview.jobs(persona, "failed")
    assert failed.last_error == "NotFound: no memory 'mem_gone'"
    with pytest.raises(NotFound):
        app.overview.retry_job("kai", job_id)
    app.overview.retry_job(persona, job_id)
    assert app.overview.jobs(persona, "failed") == []
    [pending] = app.overview.jobs(persona, "pending")
    assert (pending.id, pending.attempts) == (job_id, 0)


def test_session_view_pages_turns_and_lists_episode_notes(app: Omoide, persona: str) -> None:
    app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona,
        "s1",
        [
            {"speaker": "Haruka", "role": "user", "content": "My name is Haruka."},
            {"speaker": "Rin", "role": "assistant", "content": "Hello Haruka."},
            {"speaker": "Haruka", "role": "user", "content": "I live in Osaka."},
        ],
    )
    app.sessions.end(persona, "s1")
    for episode_id in app.sessions.segment(persona, "s1", final=True):
        app.sessions.consolidate(persona, episode_id)
    view = app.overview.session(persona, "s1", limit=2)
    assert [t.seq for t in view.turns] == [1, 2] and view.more
    assert [t.seq for t in app.overview.session(persona, "s1", after_seq=2).turns] == [3]
    [episode] = view.episodes
    assert [n.content for n in episode.notes] == [
        "Haruka's name is Haruka. (30 November 2026)",
        "Haruka lives in Osaka. (30 November 2026)",
    ]
    [row] = app.overview.sessions(persona)
    assert (row.session_id, row.turns, row.episodes) == ("s1", 3, 1)
    assert [e.content for e in app.overview.events(persona, [1, 3])] == [
        "My name is Haruka.",
        "I live in Osaka.",
    ]
