from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.companion import blend_companion
from omoide.engine.fusion import Scored


def _unique(items: list[Scored]) -> list[Scored]:
    seen: dict[int, Scored] = {}
    for item in items:
        seen.setdefault(item.id, item)
    return list(seen.values())


scored = st.lists(st.builds(Scored, st.integers(0, 40), st.floats(0.0, 1.0)), max_size=15).map(
    _unique
)
cosine_maps = st.dictionaries(st.integers(0, 40), st.floats(-1.0, 1.0), max_size=40)
weights = st.floats(0.0, 1.0)
pools = st.integers(1, 20)


def test_the_companion_reorders_the_head() -> None:
    ranked = [Scored(1, 0.9), Scored(2, 0.8), Scored(3, 0.5)]
    out = blend_companion(ranked, {1: 0.1, 2: 0.6, 3: 0.2}, weight=0.5, top_n=3)
    # relevance: 1 → 0.5·1 + 0.5·0 = 0.5; 2 → 0.5·0.75 + 0.5·1 = 0.875; 3 → 0.5·0 + 0.5·0.2
    assert [s.id for s in out] == [2, 1, 3]
    # stretched back onto the head's fused range [0.5, 0.9]: the best keeps 0.9
    assert out[0].score == pytest.approx(0.9)
    assert out[1].score == pytest.approx(0.5 + 0.4 * (0.5 - 0.1) / (0.875 - 0.1))
    assert out[2].score == pytest.approx(0.5)


def test_candidates_below_the_head_keep_their_scores_and_stay_below() -> None:
    ranked = [Scored(1, 0.9), Scored(2, 0.8), Scored(3, 0.7), Scored(4, 0.1)]
    out = blend_companion(ranked, {1: 0.0, 2: 0.0, 3: 1.0, 4: 1.0}, weight=0.6, top_n=3)
    assert [s.id for s in out] == [3, 1, 2, 4]
    assert out[-1] == Scored(4, 0.1)


def test_a_candidate_without_a_cosine_counts_as_least_similar() -> None:
    ranked = [Scored(1, 0.9), Scored(2, 0.85), Scored(3, 0.5)]
    out = blend_companion(ranked, {2: 0.7, 3: 0.3}, weight=0.5, top_n=3)
    assert [s.id for s in out] == [2, 1, 3]


def test_no_cosines_or_a_tied_head_change_nothing() -> None:
    ranked = [Scored(1, 0.9), Scored(2, 0.8)]
    assert blend_companion(ranked, {}, weight=0.5, top_n=5) == ranked
    tied = [Scored(1, 0.5), Scored(2, 0.5)]
    assert blend_companion(tied, {1: 0.0, 2: 1.0}, weight=0.5, top_n=5) == tied


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="weight"):
        blend_companion([], {}, weight=1.5, top_n=3)
    with pytest.raises(ValueError, match="top_n"):
        blend_companion([], {}, weight=0.5, top_n=0)


@given(scored, cosine_maps, weights, pools, st.randoms())
def test_the_result_does_not_depend_on_the_input_order(items, cosines, weight, top_n, rnd) -> None:
    shuffled = list(items)
    rnd.shuffle(shuffled)
    assert blend_companion(items, cosines, weight=weight, top_n=top_n) == blend_companion(
        shuffled, cosines, weight=weight, top_n=top_n
    )


@given(scored, cosine_maps, pools)
def test_weight_zero_keeps_the_fused_order_and_scores(items, cosines, top_n) -> None:
    expected = sorted(items, key=lambda s: (-s.score, s.id))
    assert blend_companion(items, cosines, weight=0.0, top_n=top_n) == expected


@given(scored, cosine_maps, weights, pools)
def test_scores_stay_in_the_heads_range_and_the_set_is_kept(items, cosines, weight, top_n) -> None:
    out = blend_companion(items, cosines, weight=weight, top_n=top_n)
    assert sorted(s.id for s in out) == sorted(s.id for s in items)
    head = sorted(items, key=lambda s: (-s.score, s.id))[:top_n]
    if head:
        head_ids = {s.id for s in head}
        assert {s.id for s in out[:top_n]} == head_ids
        for s in out[:top_n]:
            assert head[-1].score - 1e-12 <= s.score <= head[0].score + 1e-12
    assert all(a.score >= b.score - 1e-12 for a, b in pairwise(out))


@given(scored, weights, pools)
def test_equal_cosines_keep_the_fused_order(items, weight, top_n) -> None:
    """Ties stable: a companion that cannot tell candidates apart leaves their order."""
    cosines = {s.id: 0.3 for s in items}
    expected = [s.id for s in sorted(items, key=lambda s: (-s.score, s.id))]
    assert [s.id for s in blend_companion(items, cosines, weight=weight, top_n=top_n)] == expected


@given(scored, cosine_maps, weights, pools)
def test_the_heads_best_keeps_the_best_fused_score(items, cosines, weight, top_n) -> None:
    """So notes weigh against conversation excerpts (merged by score) as they did before."""
    out = blend_companion(items, cosines, weight=weight, top_n=top_n)
    if items:
        assert out[0].score == max(s.score for s in items)
