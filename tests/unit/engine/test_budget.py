"""engine.budget: a note below an excerpt that shows its turn is shown in that turn's line."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st
from memory_factory import a_memory

from omoide.engine.budget import FOLDED_KEY, fold_notes, foldable_notes
from omoide.model import MemoryKind, SearchHit, Source

MAY = datetime(2026, 5, 1, tzinfo=UTC)


def note(key: str, *events: int, content: str | None = None) -> SearchHit:
    return SearchHit(
        type="note",
        id=key,
        content=content or f"Aki said {key} (1 May 2026)",
        score=0.5,
        similarity=None,
        sources=tuple(Source(e, None) for e in events),
    )


def excerpt(*events: int) -> SearchHit:
    lines = [f"Aki: turn {e}" for e in events]
    return SearchHit(
        type="episode",
        id="7",
        content="\n".join(["[2026-05-01]", *lines]),
        score=0.8,
        similarity=0.6,
        sources=tuple(Source(e, f"t{e}") for e in events),
        extra={"session_id": "s1"},
    )


def test_a_line_whose_turn_a_note_stands_for_is_shown_in_the_notes_words() -> None:
    shown, folded = fold_notes(excerpt(1, 2, 3), foldable_notes([note("a", 2)]))
    assert shown.content == "[2026-05-01]\nAki: turn 1\nAki said a (1 May 2026)\nAki: turn 3"
    assert [n.id for n in folded] == ["a"]
    assert shown.extra == {"session_id": "s1", FOLDED_KEY: ["a"]}
    assert shown.sources == excerpt(1, 2, 3).sources and shown.score == 0.8


def test_an_excerpt_no_note_stands_for_is_returned_as_it_is() -> None:
    hit = excerpt(1, 2)
    assert fold_notes(hit, foldable_notes([note("a", 5)])) == (hit, [])
    assert fold_notes(hit, {}) == (hit, [])


def test_the_best_ranked_note_of_a_turn_is_the_one_folded() -> None:
    by_turn = foldable_notes([note("first", 2), note("second", 2)])
    assert by_turn[2].id == "first"


def test_notes_over_several_turns_or_lines_are_not_folded() -> None:
    assert (
        foldable_notes([note("pair", 1, 2), note("two-lines", 3, content="one\ntwo"), note("none")])
        == {}
    )


def _with_memory(hit: SearchHit, **fields: object) -> SearchHit:
    memory = a_memory(
        key=hit.id,
        content=hit.content,
        kind=MemoryKind.NOTE,
        source="consolidation",
        created_at=MAY,
        updated_at=MAY,
        valid_from=MAY,
        sources=hit.sources,
    )
    return replace(hit, memory=replace(memory, **fields))  # type: ignore[arg-type]


def test_a_note_with_a_validity_end_is_never_folded() -> None:
    """A closed or time-bounded note is shown on its own, where its end and successor are
    rendered; a current note of the same turn is folded."""
    current = _with_memory(note("now", 1))
    assert foldable_notes([current])[1].id == "now"
    assert foldable_notes([_with_memory(note("old", 1), superseded_by="now")]) == {}
    assert (
        foldable_notes(
            [_with_memory(note("ended", 1), valid_until=datetime(2026, 6, 1, tzinfo=UTC))]
        )
        == {}
    )
    closed_first = foldable_notes([_with_memory(note("old", 1), superseded_by="now"), current])
    assert closed_first[1].id == "now"


def test_an_excerpt_whose_lines_do_not_match_its_turns_is_left_whole() -> None:
    hit = SearchHit(
        type="episode",
        id="1",
        content="[2026-05-01]\nAki: one\ntwo",
        score=0.5,
        similarity=None,
        sources=(Source(1, None),),
    )
    assert fold_notes(hit, foldable_notes([note("a", 1)])) == (hit, [])


@given(
    st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=7, unique=True),
    st.sets(st.integers(min_value=0, max_value=12)),
)
def test_folding_keeps_one_line_per_turn_and_shows_every_folded_note(
    turns: list[int], noted: set[int]
) -> None:
    hit = excerpt(*turns)
    shown, folded = fold_notes(hit, foldable_notes([note(f"n{t}", t) for t in sorted(noted)]))
    lines = shown.content.split("\n")[1:]
    assert len(lines) == len(shown.sources) == len(turns)
    assert [n.sources[0].event_id for n in folded] == [t for t in turns if t in noted]
    for line, turn in zip(lines, turns, strict=True):
        assert line == (f"Aki said n{turn} (1 May 2026)" if turn in noted else f"Aki: turn {turn}")
