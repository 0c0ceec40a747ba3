"""Search as data: every knob of the read path in one frozen value, with named presets (pure).

A :class:`SearchPlan` says how one search is run — how many candidates each side fetches, how
the keyword and vector lists are fused, whether the keyword side is gated by script and how far
it stands in for candidates written in another script than the query, how wide an episode
excerpt is, whether memory strength is blended in, when conversation excerpts are ranked beside
notes, and whether a closed fact may outrank its successor. The search service and the episode
tier read it and nothing else, so a benchmark can try a variant by passing a plan through the
real code path (``SearchService.search(..., plan=...)``) instead of patching the code.

``PRESETS["default"]`` (= ``DEFAULT_PLAN``) is the committed behaviour; the other presets are the
variants the benchmarks measure against it (``bench/locomo.py --plan``). No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from omoide.engine.errors import ParameterError, named
from omoide.engine.fusion import FusionMethod, FusionWeights, gate_keyword

__all__ = [
    "DEFAULT_PLAN",
    "PRESETS",
    "EpisodeRule",
    "SearchPlan",
    "plan_weights",
    "preset",
]


class EpisodeRule(StrEnum):
    """When a default search (no ``include_episodes`` in the request) adds episode excerpts."""

    PERSONA = "persona"  # the persona's ``episode_search_enabled`` decides
    ALWAYS = "always"
    NEVER = "never"
    # Only when fewer than ``fallback_notes`` notes reach ``fallback_similarity`` (spec scale):
    # the spec's "fall back to episodes when notes are too few".
    FALLBACK = "fallback"


@dataclass(frozen=True)
class SearchPlan:
    """How a search is run. Weights left at None come from the persona's settings."""

    # Candidates per side for notes: max(note_pool_min, top_k × note_pool_per_result); when
    # filters are set the keyword side over-fetches × filtered_keyword_factor, then filters.
    note_pool_min: int = 50
    note_pool_per_result: int = 5
    filtered_keyword_factor: int = 20
    episode_pool: int = 60  # candidates per side for conversation turns
    fusion: FusionMethod = FusionMethod.CONVEX  # measured: docs/search.md, engine/fusion.py
    # notes and conversation turns min-max normalise their semantic scores over both tiers'
    # candidates (one scale for the merge), not each over its own (fusion.shared_scale):
    # from the best of either to the scale_depth-th best of both (0: each tier's own lowest)
    shared_scale: bool = False
    scale_depth: int = 0
    keyword_weight: float | None = None  # None → the persona's keyword_weight
    semantic_weight: float | None = None  # None → the persona's semantic_weight
    rrf_k: float = 60.0  # RRF's rank offset (only read by fusion "rrf")
    script_gate: bool = True  # no keyword weight when the best vector hit is in another script
    # a vector candidate in another script than the query gets this share of the query's best
    # keyword score × its closeness as a keyword stand-in (fusion.credit_cross_script; 0: off)
    cross_script_credit: float = 1.0
    # the note tier's vector search embeds the query without its Latin words that at least
    # this share of the persona's notes hold (and at least common_word_least notes): in
    # practice the user's own name, which pulls the query toward every note naming them
    # in the query's script (0: off; bench/results/search30.md)
    common_word_share: float = 0.15
    common_word_least: int = 10
    # ... for the embedders whose model id starts with one of these (None: every embedder):
    # e5 gained on every retrieval set, USE did not (-0.003 held out, -0.006 on two fresh sets)
    common_word_models: tuple[str, ...] | None = ("multilingual-e5",)
    # the searched vector: normalise(mix × the shortened query's + (1 − mix) × the whole
    # query's); the shortened one alone (1.0) cost LoCoMo tuning recall (-0.007), 0.7 did not
    common_word_mix: float = 0.7
    neighbours: int = 1  # turns either side of a matching turn in an excerpt
    max_window: int = 7  # the most turns one excerpt may show
    strength_blend: bool = True  # blend live strength in with the importance weight
    episodes: EpisodeRule = EpisodeRule.PERSONA
    fallback_notes: int = 3  # EpisodeRule.FALLBACK: notes needed to skip the excerpts …
    fallback_similarity: float = 0.5  # … each at least this similar (spec scale)
    trim_cited: bool = True  # drop excerpt lines whose turn a result above already stands for
    # a note below an excerpt showing its turn is shown in that line instead (engine/budget.py)
    fold_notes: bool = True
    # a current note whose source turn an excerpt of the same search shows gains this share of
    # that excerpt's score, up to just under the best result (engine.hit_order.corroborated;
    # 0: off). Chosen leave-one-conversation-out on LoCoMo 26/30/41 (bench/results/locomo50.md)
    corroboration: float = 0.25
    current_first: bool = True  # no closed fact above its current successor
    # hybrid searches re-score the fused head of companion_pool notes with the companion
    # embedder's cosine at this weight (engine/companion.py; 0: off); conversation turns take
    # companion_episode_weight (None: companion_weight). The retrieval sets' leave-one-set-out
    # favoured 0.5; on LoCoMo's tuning conversations 0.5 cost evidence recall beyond noise
    # (-0.015) and 0.3 did not (-0.006, keeping 0.810 of the sets' 0.817), and the turns lost
    # recall with it at any weight, so they go without (bench/results/search16.md)
    companion_weight: float = 0.3
    companion_pool: int = 40
    companion_episode_weight: float | None = 0.0
    # hybrid note searches move the best note written in another script than the query, when
    # it is among the first other_script_within and at least other_script_floor of the way
    # from their lowest score to their highest, up to place other_script_slot (0: off;
    # engine/script_slot.py). A question in one language about a note written in the other
    # ranks its answer below same-script notes on the topic (bench/results/retrieval_round32.md)
    other_script_slot: int = 2
    other_script_within: int = 10
    other_script_floor: float = 0.3
    # ... and only when at least this many of the vector candidates are in that script: a note
    # alone in its script is not lifted over every question (small stores with one such note
    # lost 0.003 MRR with it, bench/small_store.py --lone)
    other_script_least: int = 2
    # ... and, beside a companion, unless its cosine puts the displaced note more than this
    # above the moved one (None: no such veto); held out over ten sets 0.808 → 0.810, the
    # paraphrases' cost 0.010 → 0.002
    other_script_margin: float | None = 0.1
    # ... for the embedders whose model id starts with one of these (None: every embedder):
    # e5 gained held out over ten retrieval sets (0.802 → 0.810), USE (which has no companion)
    # did not (-0.001)
    other_script_models: tuple[str, ...] | None = ("multilingual-e5",)

    def __post_init__(self) -> None:
        for name in (
            "note_pool_min",
            "note_pool_per_result",
            "filtered_keyword_factor",
            "episode_pool",
            "max_window",
            "fallback_notes",
            "companion_pool",
            "other_script_within",
            "other_script_least",
        ):
            if getattr(self, name) < 1:
                raise ParameterError(f"{name} must be at least 1")
        if self.neighbours < 0:
            raise ParameterError("neighbours must be non-negative")
        if self.max_window < 2 * self.neighbours + 1:
            raise ParameterError("max_window must hold a turn and its neighbours")
        if self.rrf_k < 0:
            raise ParameterError("rrf_k must be non-negative")
        for name in ("keyword_weight", "semantic_weight"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ParameterError(f"{name} must be non-negative")
        if not 0.0 <= self.corroboration <= 1.0:
            raise ParameterError("corroboration must be within [0, 1]")
        if not 0.0 <= self.fallback_similarity <= 1.0:
            raise ParameterError("fallback_similarity must be within [0, 1]")
        if not 0.0 <= self.cross_script_credit <= 1.0:
            raise ParameterError("cross_script_credit must be within [0, 1]")
        if not 0.0 <= self.common_word_share <= 1.0:
            raise ParameterError("common_word_share must be within [0, 1]")
        if self.common_word_least < 1:
            raise ParameterError("common_word_least must be at least 1")
        if not 0.0 <= self.common_word_mix <= 1.0:
            raise ParameterError("common_word_mix must be within [0, 1]")
        if self.common_word_models is not None:
            object.__setattr__(self, "common_word_models", tuple(self.common_word_models))
        if self.other_script_slot == 1 or self.other_script_slot < 0:
            raise ParameterError("other_script_slot must be 0 (off) or at least 2")
        if not 0.0 <= self.other_script_floor <= 1.0:
            raise ParameterError("other_script_floor must be within [0, 1]")
        if self.other_script_margin is not None and self.other_script_margin < 0:
            raise ParameterError("other_script_margin must be non-negative")
        if self.other_script_models is not None:
            object.__setattr__(self, "other_script_models", tuple(self.other_script_models))
        for name in ("companion_weight", "companion_episode_weight"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ParameterError(f"{name} must be within [0, 1]")
        object.__setattr__(self, "fusion", FusionMethod(self.fusion))
        object.__setattr__(self, "episodes", EpisodeRule(self.episodes))

    def note_pool(self, top_k: int) -> int:
        """Candidates each side fetches for a note search returning ``top_k`` results."""
        return max(self.note_pool_min, top_k * self.note_pool_per_result)

    @property
    def episode_companion_weight(self) -> float:
        """The companion's weight for conversation turns."""
        return (
            self.companion_weight
            if self.companion_episode_weight is None
            else self.companion_episode_weight
        )

    def leaves_out_common_words(self, model_id: str) -> bool:
        """Whether a note search embedding with ``model_id`` leaves the persona's common
        words out of its query vector."""
        return self.common_word_share > 0 and (
            self.common_word_models is None
            or any(model_id.startswith(prefix) for prefix in self.common_word_models)
        )

    def gives_other_script_slot(self, model_id: str) -> bool:
        """Whether a hybrid note search embedding with ``model_id`` moves the best note in
        another script than the query up to :attr:`other_script_slot`."""
        return self.other_script_slot > 0 and (
            self.other_script_models is None
            or any(model_id.startswith(prefix) for prefix in self.other_script_models)
        )

    def keyword_limit(self, pool: int, *, filtered: bool) -> int:
        """Keyword candidates to fetch: filters are applied after the FTS query, so more."""
        return pool * self.filtered_keyword_factor if filtered else pool


def plan_weights(
    plan: SearchPlan, *, keyword: float, semantic: float, query_script: int, top_script: int | None
) -> FusionWeights:
    """The fusion weights of one query: the plan's, else the persona's (``keyword``,
    ``semantic``), gated by script when the plan says so (``fusion.gate_keyword``).
    Raises ValueError when both weights are zero."""
    weights = FusionWeights(
        keyword=keyword if plan.keyword_weight is None else plan.keyword_weight,
        semantic=semantic if plan.semantic_weight is None else plan.semantic_weight,
        k=plan.rrf_k,
    )
    if not plan.script_gate:
        return weights
    return gate_keyword(weights, query_script=query_script, top_semantic_script=top_script)


DEFAULT_PLAN = SearchPlan()

PRESETS: Mapping[str, SearchPlan] = MappingProxyType(
    {
        "default": DEFAULT_PLAN,
        "notes_only": replace(DEFAULT_PLAN, episodes=EpisodeRule.NEVER),
        "episodes_always": replace(DEFAULT_PLAN, episodes=EpisodeRule.ALWAYS),
        "episode_fallback": replace(DEFAULT_PLAN, episodes=EpisodeRule.FALLBACK),
        "rrf": replace(DEFAULT_PLAN, fusion=FusionMethod.RRF),
        "minmax": replace(DEFAULT_PLAN, fusion=FusionMethod.MINMAX),
        "zscore": replace(DEFAULT_PLAN, fusion=FusionMethod.ZSCORE),
        "balanced_weights": replace(DEFAULT_PLAN, keyword_weight=0.5, semantic_weight=0.5),
        "no_script_gate": replace(DEFAULT_PLAN, script_gate=False),
        "shared_scale": replace(DEFAULT_PLAN, shared_scale=True),
        "no_cross_script_credit": replace(DEFAULT_PLAN, cross_script_credit=0.0),
        "whole_query_vector": replace(DEFAULT_PLAN, common_word_share=0.0),
        "common_words_any_model": replace(DEFAULT_PLAN, common_word_models=None),
        "common_words_unmixed": replace(DEFAULT_PLAN, common_word_mix=1.0),
        "no_strength": replace(DEFAULT_PLAN, strength_blend=False),
        "no_current_first": replace(DEFAULT_PLAN, current_first=False),
        "no_trim": replace(DEFAULT_PLAN, trim_cited=False),
        "no_fold": replace(DEFAULT_PLAN, fold_notes=False),
        "no_corroboration": replace(DEFAULT_PLAN, corroboration=0.0),
        "narrow_excerpts": replace(DEFAULT_PLAN, max_window=3),
        "single_turns": replace(DEFAULT_PLAN, neighbours=0),
        "wide_pools": replace(DEFAULT_PLAN, note_pool_min=100, episode_pool=120),
        "no_companion": replace(DEFAULT_PLAN, companion_weight=0.0),
        "companion_half": replace(DEFAULT_PLAN, companion_weight=0.5),
        "companion_everywhere": replace(
            DEFAULT_PLAN, companion_weight=0.5, companion_episode_weight=None
        ),
        "no_other_script_slot": replace(DEFAULT_PLAN, other_script_slot=0),
        "other_script_slot_any_model": replace(DEFAULT_PLAN, other_script_models=None),
        "other_script_slot_unvetoed": replace(DEFAULT_PLAN, other_script_margin=None),
        "companion_light": replace(
            DEFAULT_PLAN, companion_weight=0.3, companion_pool=20, companion_episode_weight=None
        ),
    }
)


def preset(name: str) -> SearchPlan:
    """The named preset; ParameterError (a ValueError) naming the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ParameterError(
            f"unknown search plan {named(name)}; known: {', '.join(PRESETS)}"
        ) from None
