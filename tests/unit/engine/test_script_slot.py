import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.fusion import Scored
from omoide.engine.script_slot import other_script_slot

LATIN, CJK = 0, 1


def _ranked(*scores: float) -> list[Scored]:
    return [Scored(i, s) for i, s in enumerate(scores, start=1)]


def test_the_best_other_script_note_moves_up_to_the_slot() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.6, 0.1)
    scripts = {1: LATIN, 2: LATIN, 3: LATIN, 4: CJK, 5: CJK}
    out = other_script_slot(ranked, scripts, LATIN, slot=2, within=5, floor=0.3)
    assert [s.id for s in out] == [1, 4, 2, 3, 5]
    # between its new neighbours' scores: the order holds on the score scale
    assert out[1].score == pytest.approx(0.85)
    assert [s.score for s in out] == sorted((s.score for s in out), reverse=True)


def test_the_first_place_is_never_taken() -> None:
    ranked = _ranked(0.9, 0.8, 0.7)
    out = other_script_slot(ranked, {1: CJK, 2: LATIN, 3: CJK}, LATIN, slot=2, within=3)
    assert out == ranked  # the best other-script note is first already


def test_a_note_at_the_slot_or_above_stays() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.6)
    out = other_script_slot(ranked, {1: LATIN, 2: CJK, 3: CJK, 4: LATIN}, LATIN, within=4)
    assert out == ranked


def test_only_the_head_is_searched_and_nothing_enters_it_from_below() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.65)
    out = other_script_slot(ranked, {1: LATIN, 2: LATIN, 3: LATIN, 4: CJK}, LATIN, within=3)
    assert out == ranked


def test_a_weak_other_script_note_stays_where_it_is() -> None:
    # the head's scores run from 0.1 to 0.9; the CJK note is at 0.2: 12.5% of the way up
    ranked = _ranked(0.9, 0.85, 0.8, 0.2, 0.1)
    scripts = {1: LATIN, 2: LATIN, 3: LATIN, 4: CJK, 5: LATIN}
    assert other_script_slot(ranked, scripts, LATIN, within=5, floor=0.3) == ranked
    moved = other_script_slot(ranked, scripts, LATIN, within=5, floor=0.1)
    assert [s.id for s in moved] == [1, 4, 2, 3, 5]


def test_a_japanese_question_lifts_a_latin_note_too() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.1)
    out = other_script_slot(ranked, {1: CJK, 2: CJK, 3: LATIN, 4: CJK}, CJK, within=4)
    assert [s.id for s in out] == [1, 3, 2, 4]


def test_notes_without_a_script_are_never_moved() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.1)
    assert other_script_slot(ranked, {1: LATIN, 2: LATIN, 3: None}, LATIN, within=4) == ranked
    assert other_script_slot(ranked, {1: LATIN}, LATIN, within=4) == ranked


def test_a_later_slot() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.6)
    out = other_script_slot(
        ranked, {1: LATIN, 2: LATIN, 3: LATIN, 4: CJK}, LATIN, slot=3, within=4, floor=0.0
    )
    assert [s.id for s in out] == [1, 2, 4, 3]
    assert out[2].score == pytest.approx(0.75)


@pytest.mark.parametrize(
    "change", [{"slot": 1}, {"slot": 0}, {"within": 0}, {"floor": -0.1}, {"floor": 1.5}]
)
def test_bad_parameters_are_refused(change: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        other_script_slot([], {}, LATIN, **change)  # type: ignore[arg-type]


@given(
    st.lists(st.tuples(st.floats(0.0, 1.0), st.sampled_from([LATIN, CJK, None])), max_size=15),
    st.sampled_from([LATIN, CJK]),
    st.integers(2, 4),
    st.integers(1, 12),
    st.floats(0.0, 1.0),
)
def test_only_the_heads_order_changes(
    items: list[tuple[float, int | None]], query: int, slot: int, within: int, floor: float
) -> None:
    ranked = sorted(
        (Scored(i, s) for i, (s, _) in enumerate(items)), key=lambda s: (-s.score, s.id)
    )
    scripts = {i: script for i, (_, script) in enumerate(items)}
    out = other_script_slot(ranked, scripts, query, slot=slot, within=within, floor=floor)
    assert sorted(s.id for s in out) == sorted(s.id for s in ranked)
    assert {s.id for s in out[:within]} == {s.id for s in ranked[:within]}
    assert out[within:] == ranked[within:]
    if out:
        assert out[0] == ranked[0] or len(ranked) <= slot or out[0].id == ranked[0].id
    scores = [s.score for s in out]
    assert scores == sorted(scores, reverse=True)  # still best first on the same scale
    moved = [s for s in out if s not in ranked]
    assert len(moved) <= 1
    if moved:
        assert scripts[moved[0].id] not in (None, query)
        assert [s.id for s in out].index(moved[0].id) == slot - 1


def test_a_second_opinion_that_disagrees_by_more_than_the_margin_vetoes_the_move() -> None:
    ranked = _ranked(0.9, 0.8, 0.7, 0.6, 0.1)
    scripts = {1: LATIN, 2: LATIN, 3: LATIN, 4: CJK, 5: CJK}
    # note 2 (the one it would displace) is 0.15 above note 4 on the other embedder: vetoed
    vetoed = other_script_slot(
        ranked, scripts, LATIN, within=5, second_opinion={2: 0.55, 4: 0.40}, margin=0.1
    )
    assert vetoed == ranked
    # within the margin (0.05 below), or above it: moved
    for cosine in (0.50, 0.70):
        out = other_script_slot(
            ranked, scripts, LATIN, within=5, second_opinion={2: 0.55, 4: cosine}, margin=0.1
        )
        assert [s.id for s in out] == [1, 4, 2, 3, 5]
    # a note the second opinion has no cosine for: no veto
    out = other_script_slot(ranked, scripts, LATIN, within=5, second_opinion={2: 0.9}, margin=0.1)
    assert [s.id for s in out] == [1, 4, 2, 3, 5]


def test_a_negative_margin_is_refused() -> None:
    with pytest.raises(ValueError, match="margin"):
        other_script_slot([], {}, LATIN, margin=-0.1)
