"""The order search results are shown in (``engine.hit_order``): scores equal as shown are a tie
broken by the older row, and default search merges notes and conversation excerpts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from memory_factory import a_memory

from omoide.engine.hit_order import (
    corroborated,
    merge_ranked,
    ordered_hits,
    shown_score,
    without_turns,
)
from omoide.model import SearchHit, Source


def note(key: str, score: float, *events: int) -> SearchHit:
    return SearchHit(
        type="note",
        id=key,
        content=f"note {key}",
        score=score,
        similarity=None,
        sources=tuple(Source(e, None) for e in events),
    )


def excerpt(ident: str, score: float, *events: int) -> SearchHit:
    lines = [f"Ken: turn {e}" for e in events]
    return SearchHit(
        type="episode",
        id=ident,
        content="\n".join(["[2026-11-30]", *lines]),
        score=score,
        similarity=None,
        sources=tuple(Source(e, None) for e in events),
    )


def test_one_ranking_by_score_note_first_on_a_tie() -> None:
    merged = merge_ranked(
        [note("a", 0.9), note("b", 0.5)], [excerpt("1", 0.7, 10), excerpt("2", 0.5, 20)], top_k=10
    )
    assert [h.id for h in merged] == ["a", "1", "b", "2"]


def test_an_excerpt_shows_only_turns_no_result_above_stands_for() -> None:
    merged = merge_ranked(
        [note("a", 0.9, 11)],
        [excerpt("1", 0.8, 10, 11, 12), excerpt("2", 0.7, 12), excerpt("3", 0.6, 12, 13)],
        top_k=10,
    )
    assert [h.id for h in merged] == ["a", "1", "3"]
    assert merged[1].content == "[2026-11-30]\nKen: turn 10\nKen: turn 12"
    assert [s.event_id for s in merged[1].sources] == [10, 12]
    assert merged[2].content == "[2026-11-30]\nKen: turn 13"


def test_a_note_below_an_excerpt_that_shows_its_turn_is_shown_in_that_line() -> None:
    merged = merge_ranked(
        [note("a", 0.5, 10), note("b", 0.4, 20)], [excerpt("1", 0.9, 10, 11)], top_k=10
    )
    assert [h.id for h in merged] == ["1", "b"]
    assert merged[0].content == "[2026-11-30]\nnote a\nKen: turn 11"
    assert merged[0].extra["folded_notes"] == ["a"]
    assert [s.event_id for s in merged[0].sources] == [10, 11]


def test_without_folding_notes_stay_beside_an_excerpt_that_shows_their_turn() -> None:
    merged = merge_ranked([note("a", 0.5, 10)], [excerpt("1", 0.9, 10, 11)], top_k=10, fold=False)
    assert [h.id for h in merged] == ["1", "a"]


def test_a_turn_is_folded_once_and_a_note_above_is_never_folded() -> None:
    merged = merge_ranked(
        [note("a", 0.95, 11), note("b", 0.5, 12)],
        [excerpt("1", 0.9, 11, 12), excerpt("2", 0.8, 12, 13)],
        top_k=10,
    )
    assert [h.id for h in merged] == ["a", "1", "2"]
    assert merged[1].content == "[2026-11-30]\nnote b"
    assert merged[2].content == "[2026-11-30]\nKen: turn 13"
    assert "folded_notes" not in merged[2].extra


def test_top_k_counts_what_is_kept() -> None:
    merged = merge_ranked(
        [note("a", 0.9, 1)], [excerpt("1", 0.8, 1), excerpt("2", 0.7, 2)], top_k=2
    )
    assert [h.id for h in merged] == ["a", "2"]


def test_a_multi_line_turn_keeps_its_excerpt_whole() -> None:
    hit = SearchHit(
        type="episode",
        id="1",
        content="[2026-11-30]\nKen: one\ntwo",
        score=0.5,
        similarity=None,
        sources=(Source(1, None),),
    )
    assert without_turns(hit, {1}) is hit


def _hit(key: str, score: float) -> SearchHit:
    return SearchHit(type="note", id=key, content=key, score=score, similarity=None)


def test_scores_equal_as_shown_are_a_tie_broken_by_the_older_row() -> None:
    """0.5 and 0.5 + 1e-12 show alike; float noise below the shown digits (which differs
    between the stores' arithmetic) must not decide their order."""
    hits = [
        (3, _hit("mem_a", 0.5 + 1e-12)),
        (1, _hit("mem_z", 0.5)),
        (2, _hit("mem_m", 0.5 - 1e-12)),
        (9, _hit("mem_b", 0.7)),
    ]
    assert [row for row, _ in ordered_hits(hits)] == [9, 1, 2, 3]
    assert shown_score(0.5 + 1e-12) == shown_score(0.5) == 0.5


DEC = datetime(2026, 12, 1, tzinfo=UTC)


def _closed(
    key: str, *, closed: datetime, until: datetime, start: datetime | None = None
) -> SearchHit:
    """A fact of score 0.5 superseded at ``closed`` with validity end ``until``."""
    memory = a_memory(
        key=key,
        content=key,
        created_at=DEC - timedelta(days=30),
        updated_at=closed,
        valid_from=start,
        valid_until=until,
        superseded_by="mem_next",
    )
    return replace(_hit(key, 0.5), memory=memory, extra={"current": False})


def test_closed_facts_tie_by_when_they_were_closed_not_by_a_plans_start_ahead() -> None:
    """A plan given up before it began keeps its planned start (ahead of now) as its end; it
    was closed between the other two, so it is shown between them, not first."""
    first = _closed("mem_first", closed=DEC, until=DEC)
    plan_start = DEC + timedelta(days=90)
    plan = _closed("mem_plan", closed=DEC + timedelta(days=1), until=plan_start, start=plan_start)
    last = _closed("mem_last", closed=DEC + timedelta(days=2), until=DEC + timedelta(days=2))
    assert plan.memory is not None and plan.memory.never_held()
    hits = [(1, first), (2, plan), (3, last)]
    assert [hit.id for _, hit in ordered_hits(hits)] == ["mem_last", "mem_plan", "mem_first"]


def test_a_fact_that_ended_on_its_own_is_closed_at_its_end_not_when_it_was_written() -> None:
    early = replace(_closed("mem_a", closed=DEC, until=DEC - timedelta(days=5)))
    ended = _closed("mem_b", closed=DEC - timedelta(days=20), until=DEC - timedelta(days=1))
    assert ended.memory is not None
    ended = replace(ended, memory=replace(ended.memory, superseded_by=None))
    assert [hit.id for _, hit in ordered_hits([(1, early), (2, ended)])] == ["mem_b", "mem_a"]


def test_a_current_facts_end_ahead_does_not_order_it() -> None:
    bounded = _closed("mem_b", closed=DEC, until=DEC + timedelta(days=9))
    assert bounded.memory is not None
    bounded = replace(bounded, memory=replace(bounded.memory, superseded_by=None), extra={})
    assert [row for row, _ in ordered_hits([(2, bounded), (1, _hit("mem_a", 0.5))])] == [1, 2]


def test_a_note_whose_turn_an_excerpt_shows_is_raised_by_a_share_of_its_score() -> None:
    notes = [note("a", 0.6, 30), note("b", 0.5, 11), note("c", 0.45, 40)]
    raised = corroborated(notes, [excerpt("1", 0.8, 10, 11, 12)], 0.25)
    assert [(h.id, h.score) for h in raised] == [("b", 0.7), ("a", 0.6), ("c", 0.45)]
    assert notes[1].score == 0.5  # the hits given are not changed


def test_a_raised_note_stays_under_the_best_result_and_a_closed_one_is_not_raised() -> None:
    best = excerpt("1", 0.8, 10, 11)
    closed = replace(note("c", 0.5, 11), extra={"current": False})
    raised = corroborated([note("a", 0.75, 10), closed], [best], 1.0)
    assert [(h.id, h.score) for h in raised] == [("a", 0.799999), ("c", 0.5)]
    merged = merge_ranked(raised, [best], top_k=10)
    assert merged[0].id == "1"


def test_no_share_or_no_excerpt_leaves_the_notes_as_they_are() -> None:
    notes = [note("a", 0.6, 10), note("b", 0.5, 11)]
    assert corroborated(notes, [excerpt("1", 0.8, 11)], 0.0) is notes
    assert corroborated(notes, [], 0.25) is notes
