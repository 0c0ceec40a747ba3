import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.fusion import (
    DEFAULT_METHOD,
    DEFAULT_WEIGHTS,
    FusionMethod,
    FusionWeights,
    Scored,
    blend_strength,
    credit_cross_script,
    fuse,
    lift_successors,
    rrf,
    shared_scale,
)

ids = st.integers(min_value=0, max_value=30)
ranked_list = st.lists(ids, max_size=12, unique=True)
weight = st.floats(min_value=0.0, max_value=5.0, allow_nan=False)
scored_list = st.lists(
    st.builds(Scored, ids, st.floats(min_value=-50, max_value=50, allow_nan=False)), max_size=12
)


def test_rrf_sums_weighted_reciprocal_ranks() -> None:
    fused = rrf([[1, 2, 3], [3, 1]], [1.0, 2.0], k=1.0)
    assert fused == [Scored(3, 1 / 4 + 2 / 2), Scored(1, 1 / 2 + 2 / 3), Scored(2, 1 / 3)]


def test_rrf_breaks_ties_by_id() -> None:
    assert [s.id for s in rrf([[7], [5]], [1.0, 1.0])] == [5, 7]


def test_rrf_counts_a_repeated_id_once_at_its_best_rank() -> None:
    assert rrf([[4, 4, 2]], [1.0], k=0.0) == [Scored(4, 1.0), Scored(2, 1 / 3)]


def test_rrf_rejects_a_weight_count_that_does_not_match() -> None:
    with pytest.raises(ValueError, match="one weight per ranked list"):
        rrf([[1], [2]], [1.0])


@given(st.lists(st.tuples(ranked_list, weight), max_size=4), st.randoms())
def test_rrf_does_not_depend_on_list_order(pairs: list, random) -> None:
    shuffled = pairs[:]
    random.shuffle(shuffled)
    before = rrf([p[0] for p in pairs], [p[1] for p in pairs])
    after = rrf([p[0] for p in shuffled], [p[1] for p in shuffled])
    assert [s.id for s in before] == [s.id for s in after]
    assert [s.score for s in before] == pytest.approx([s.score for s in after])


@pytest.mark.parametrize("method", list(FusionMethod))
@settings(max_examples=40)
@given(keyword=scored_list, semantic=scored_list)
def test_fuse_returns_only_ids_from_its_inputs(method: str, keyword: list, semantic: list) -> None:
    fused = fuse(keyword, semantic, weights=DEFAULT_WEIGHTS, method=method)
    assert {s.id for s in fused} == {s.id for s in keyword} | {s.id for s in semantic}
    assert len(fused) == len({s.id for s in fused})


@pytest.mark.parametrize("method", list(FusionMethod))
@settings(max_examples=40)
@given(keyword=scored_list, semantic=scored_list, data=st.randoms())
def test_fuse_does_not_depend_on_input_order(
    method: str, keyword: list, semantic: list, data
) -> None:
    shuffled_kw, shuffled_sem = keyword[:], semantic[:]
    data.shuffle(shuffled_kw)
    data.shuffle(shuffled_sem)
    assert fuse(keyword, semantic, method=method) == fuse(shuffled_kw, shuffled_sem, method=method)


@pytest.mark.parametrize("method", list(FusionMethod))
@settings(max_examples=40)
@given(keyword=scored_list, semantic=scored_list)
def test_fuse_scores_are_never_negative(method: str, keyword: list, semantic: list) -> None:
    assert all(s.score >= 0 for s in fuse(keyword, semantic, method=method))


def test_fuse_rrf_ranks_by_position_only() -> None:
    keyword = [Scored(1, 9.0), Scored(2, 0.1)]
    semantic = [Scored(2, 0.9), Scored(1, 0.1)]
    fused = fuse(keyword, semantic, weights=FusionWeights(1.0, 1.0, k=0.0), method="rrf")
    assert fused == [Scored(1, 1.5), Scored(2, 1.5)]


def test_fuse_minmax_keeps_the_gap_to_the_leader() -> None:
    keyword = [Scored(1, 10.0), Scored(2, 1.0), Scored(3, 0.0)]
    semantic = [Scored(2, 0.5), Scored(3, 0.4), Scored(1, 0.0)]
    fused = fuse(keyword, semantic, weights=FusionWeights(0.5, 0.5), method="minmax")
    assert [s.id for s in fused] == [2, 1, 3]
    assert fused[0].score == pytest.approx(0.55)


def test_fuse_zscore_counts_a_missing_item_as_the_list_average() -> None:
    keyword = [Scored(1, 4.0), Scored(2, 2.0)]  # z-scores +1, -1
    semantic = [Scored(3, 0.75), Scored(4, 0.25)]  # z-scores +1, -1
    fused = fuse(keyword, semantic, weights=FusionWeights(0.5, 0.5), method="zscore")
    # Weighted mean z: +0.5 for the leaders, -0.5 for the others, through the logistic function.
    assert [s.id for s in fused] == [1, 3, 2, 4]
    assert [s.score for s in fused] == pytest.approx([0.6225, 0.6225, 0.3775, 0.3775], abs=1e-4)


def test_fuse_convex_takes_keyword_coverage_as_is() -> None:
    keyword = [Scored(1, 0.2), Scored(2, 1.7)]
    semantic = [Scored(1, 0.9), Scored(2, 0.5)]
    fused = fuse(keyword, semantic, weights=FusionWeights(0.5, 0.5), method="convex")
    # keyword 0.2 stays 0.2 and 1.7 is clipped to 1; semantic is min-max normalised to 1 and 0.
    assert [s.id for s in fused] == [1, 2]
    assert [s.score for s in fused] == pytest.approx([0.6, 0.5])


def test_fuse_convex_does_not_stretch_weak_keyword_hits() -> None:
    keyword = [Scored(1, 0.1)]  # only a common word matched: coverage 0.1
    semantic = [Scored(2, 0.6), Scored(1, 0.4)]
    fused = fuse(keyword, semantic, weights=FusionWeights(0.4, 0.6), method="convex")
    assert [s.id for s in fused] == [2, 1]


def test_the_default_fusion_keeps_weak_keyword_lists_weak_where_zscore_stretches_them() -> None:
    # Every keyword hit matched only common words of the question (coverage 0.1 or less); the
    # best vector hit is missing from that list. z-scores stretch the weak list to the same
    # spread as any other and let its leader win; coverage taken as it is does not.
    keyword = [Scored(1, 0.10), Scored(3, 0.05), Scored(4, 0.04)]
    semantic = [Scored(2, 0.90), Scored(1, 0.88), Scored(3, 0.70), Scored(4, 0.69)]
    weights = FusionWeights(0.4, 0.6)
    assert fuse(keyword, semantic, weights=weights)[0].id == 2
    assert fuse(keyword, semantic, weights=weights, method="zscore")[0].id == 1
    assert DEFAULT_METHOD == "convex"


def test_fuse_of_two_empty_lists_is_empty() -> None:
    assert fuse([], [], method="zscore") == []


def test_fuse_rejects_an_unknown_method() -> None:
    with pytest.raises(ValueError, match="bogus"):
        fuse([], [], method="bogus")


@pytest.mark.parametrize(
    ("keyword", "semantic", "k"),
    [
        pytest.param(-0.1, 1.0, 60.0, id="negative-keyword"),
        pytest.param(0.0, 0.0, 60.0, id="both-zero"),
        pytest.param(1.0, 1.0, -1.0, id="negative-k"),
    ],
)
def test_fusion_weights_reject_invalid_values(keyword: float, semantic: float, k: float) -> None:
    with pytest.raises(ValueError):
        FusionWeights(keyword=keyword, semantic=semantic, k=k)


@pytest.mark.parametrize(
    ("score", "strength", "w", "expected"),
    [
        pytest.param(0.8, 0.5, 0.0, 0.8, id="weight-zero-ignores-strength"),
        pytest.param(0.8, 0.5, 1.0, 0.4, id="weight-one-multiplies"),
        pytest.param(1.0, 0.5, 0.5, 0.75, id="half"),
        pytest.param(1.0, 1.7, 0.5, 1.0, id="strength-clamped-high"),
        pytest.param(1.0, -0.3, 0.5, 0.5, id="strength-clamped-low"),
    ],
)
def test_blend_strength_mixes_strength_into_the_score(
    score: float, strength: float, w: float, expected: float
) -> None:
    assert blend_strength(score, strength, w) == pytest.approx(expected)


@pytest.mark.parametrize("w", [-0.1, 1.1])
def test_blend_strength_rejects_weight_outside_unit_interval(w: float) -> None:
    with pytest.raises(ValueError, match="importance_weight"):
        blend_strength(1.0, 0.5, w)


unit = st.floats(min_value=0.0, max_value=1.0)


@given(st.floats(min_value=0.0, max_value=100.0), unit, unit)
def test_blend_strength_stays_between_the_discounted_and_full_score(
    score: float, strength: float, w: float
) -> None:
    blended = blend_strength(score, strength, w)
    assert score * (1 - w) - 1e-9 <= blended <= score + 1e-9


@given(st.floats(min_value=0.0, max_value=100.0), unit, unit, unit)
def test_blend_strength_never_falls_as_strength_rises(
    score: float, s1: float, s2: float, w: float
) -> None:
    low, high = sorted((s1, s2))
    assert blend_strength(score, low, w) <= blend_strength(score, high, w) + 1e-12


closed_keys = st.sampled_from([f"old{i}" for i in range(6)])
head_keys = st.sampled_from([f"new{i}" for i in range(4)])  # chain heads are never closed
key_scores = st.dictionaries(
    closed_keys | head_keys, st.floats(min_value=0, max_value=1, allow_nan=False), max_size=10
)


@given(key_scores, st.dictionaries(closed_keys, head_keys, max_size=6))
def test_lift_successors_no_closed_fact_outranks_its_successor(
    scores: dict[str, float], successor_of: dict[str, str]
) -> None:
    lifted = lift_successors(scores, successor_of)
    for closed, successor in successor_of.items():
        if closed in scores:
            assert lifted[successor] >= lifted[closed]
    for key, value in scores.items():
        assert lifted[key] >= value  # scores only go up, and only for successors
        if key not in successor_of.values():
            assert lifted[key] == value


def test_lift_successors_brings_in_a_missing_successor_at_the_closed_score() -> None:
    assert lift_successors({"old": 0.9, "other": 0.5}, {"old": "new"}) == {
        "old": 0.9,
        "other": 0.5,
        "new": 0.9,
    }
    assert lift_successors({"old": 0.2, "new": 0.7}, {"old": "new"}) == {"old": 0.2, "new": 0.7}


def test_lift_successors_lifts_every_fact_of_a_chain_by_what_it_closed() -> None:
    # a → b → c (c current): a matched best; b and c both rise to a's score, so the tie-break
    # (current first, then the fact closed last) orders c, b, a.
    lifted = lift_successors({"a": 0.9, "b": 0.4, "c": 0.6}, {"a": ("b", "c"), "b": ("c",)})
    assert lifted == {"a": 0.9, "b": 0.9, "c": 0.9}
    assert lift_successors({"a": 0.9}, {"a": ("b", "c")}) == {"a": 0.9, "b": 0.9, "c": 0.9}


LATIN, CJK = 0, 1


def test_cross_script_candidates_get_the_best_keyword_score_times_their_closeness() -> None:
    # an English question: 1 and 2 share a name with it, 3 and 4 are written in Japanese
    keyword = [Scored(1, 0.5), Scored(2, 0.45)]
    semantic = [Scored(1, 0.40), Scored(3, 0.35), Scored(2, 0.30), Scored(4, 0.20)]
    scripts = {1: LATIN, 2: LATIN, 3: CJK, 4: CJK}
    credited = credit_cross_script(
        keyword, semantic, script_of=scripts, query_script=LATIN, share=1.0
    )
    assert credited[:2] == keyword
    assert {i.id: round(i.score, 6) for i in credited[2:]} == {3: 0.375}  # 4: closeness 0
    fused = fuse(credited, semantic, weights=FusionWeights(0.4, 0.6), method="convex")
    plain = fuse(keyword, semantic, weights=FusionWeights(0.4, 0.6), method="convex")
    assert [i.id for i in plain][:2] == [1, 2] and [i.id for i in fused][:2] == [1, 3]


def test_no_cross_script_credit_without_keyword_hits_or_share_or_other_script() -> None:
    semantic = [Scored(3, 0.5), Scored(1, 0.4)]
    scripts = {1: LATIN, 3: CJK}
    assert credit_cross_script([], semantic, script_of=scripts, query_script=LATIN, share=1.0) == []
    keyword = [Scored(1, 0.3)]
    assert (
        credit_cross_script(keyword, semantic, script_of=scripts, query_script=LATIN, share=0.0)
        == keyword
    )
    assert (
        credit_cross_script(
            keyword, semantic, script_of={1: LATIN, 3: LATIN}, query_script=LATIN, share=1.0
        )
        == keyword
    )
    assert (
        credit_cross_script(
            keyword, semantic, script_of={1: LATIN, 3: None}, query_script=LATIN, share=1.0
        )
        == keyword
    )
    with pytest.raises(ValueError):
        credit_cross_script(keyword, semantic, script_of=scripts, query_script=LATIN, share=2.0)


def test_a_cross_script_candidate_keeps_a_better_keyword_score_of_its_own() -> None:
    keyword = [Scored(3, 0.9), Scored(1, 0.3)]  # 3 (Japanese) matched a Latin word itself
    semantic = [Scored(3, 0.5), Scored(1, 0.4)]
    credited = credit_cross_script(
        keyword, semantic, script_of={1: LATIN, 3: CJK}, query_script=LATIN, share=1.0
    )
    assert credited == keyword


@given(scored_list, scored_list, st.floats(0.0, 1.0))
def test_cross_script_credit_never_exceeds_the_best_keyword_score_nor_lowers_one(
    keyword: list[Scored], semantic: list[Scored], share: float
) -> None:
    scripts = {i: i % 2 for i in range(31)}
    credited = credit_cross_script(
        keyword, semantic, script_of=scripts, query_script=LATIN, share=share
    )
    assert credited[: len(keyword)] == keyword
    best = min(max((i.score for i in keyword), default=0.0), 1.0)
    own = {i.id: max(s.score for s in keyword if s.id == i.id) for i in keyword}
    for item in credited[len(keyword) :]:
        assert scripts[item.id] == CJK and 0.0 <= item.score <= best + 1e-12
        assert item.score > own.get(item.id, 0.0)


def test_shared_scale_runs_from_the_best_of_all_lists_to_their_depth_th_best() -> None:
    assert shared_scale([0.2, 0.9, 0.5, 0.1], depth=2) == (0.5, 0.9)
    assert shared_scale([0.2, 0.9], depth=10) == (0.2, 0.9)  # fewer: the lowest
    assert shared_scale([0.2, 0.9], depth=0) == (None, 0.9)  # each list keeps its own lowest
    assert shared_scale([]) is None


def test_on_a_shared_scale_a_list_s_best_scores_1_only_if_it_is_the_best_of_all() -> None:
    """Notes and turns ranked beside each other: normalised each on its own, the best of a
    weak list scores as much as the best of a strong one; over one scale, it does not."""
    weights = FusionWeights(keyword=0.4, semantic=0.6)
    weak = [Scored(1, 0.30), Scored(2, 0.10)]
    strong = [Scored(3, 0.50), Scored(4, 0.10)]
    assert fuse([], weak, weights=weights)[0].score == pytest.approx(0.6)
    scale = shared_scale([s.score for s in weak + strong], depth=0)
    assert fuse([], weak, weights=weights, semantic_span=scale)[0].score == pytest.approx(
        0.6 * (0.30 - 0.10) / (0.50 - 0.10)
    )
    assert fuse([], strong, weights=weights, semantic_span=scale)[0].score == pytest.approx(0.6)


def test_a_score_outside_a_shared_scale_is_clipped_to_it() -> None:
    ranked = fuse(
        [],
        [Scored(1, 0.9), Scored(2, -0.2)],
        weights=FusionWeights(0.0, 1.0),
        method="minmax",
        semantic_span=(0.0, 0.5),
    )
    assert [(s.id, s.score) for s in ranked] == [(1, 1.0), (2, 0.0)]
