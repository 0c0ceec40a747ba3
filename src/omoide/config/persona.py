"""The per-persona runtime settings (thresholds, switches, budgets), each declared once as a
field of :class:`PersonaSettings`: its name, type, default, one-line help and limits. The docs
table, the settings API and the dashboard form are derived from these declarations
(:data:`PERSONA_SETTINGS`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import tzinfo
from typing import Any, get_type_hints

__all__ = ["PERSONA_SETTINGS", "RETIRED_SETTINGS", "PersonaSettings", "Setting", "setting"]


@dataclass(frozen=True)
class Setting:
    """Declaration of one per-persona runtime setting, read from a :class:`PersonaSettings`
    field (see :data:`PERSONA_SETTINGS`)."""

    name: str
    type: type
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None


_DECLARATION = "omoide.setting"


def setting(
    default: Any,
    help: str,
    minimum: float | None = None,
    maximum: float | None = None,
    *,
    choices: tuple[str, ...] | None = None,
) -> Any:
    """A :class:`PersonaSettings` field: its default, one-line help and allowed values."""
    limits = {"help": help, "minimum": minimum, "maximum": maximum, "choices": choices}
    return field(default=default, metadata={_DECLARATION: limits})


@dataclass(frozen=True)
class PersonaSettings:
    """Every per-persona setting, declared once: name, type, default, help and limits. The
    validation (:func:`validate_setting_patch`), the ``OMOIDE_<NAME>`` override
    (:func:`persona_defaults`), the settings API, the dashboard form and the table in
    ``docs/settings.md`` all read these declarations through :data:`PERSONA_SETTINGS`."""

    language: str = setting(
        "auto", "Language of prompts and context text.", choices=("auto", "en", "ja")
    )
    timezone: str = setting(
        "UTC",
        "IANA time zone of the days shown (a note's date and the "
        "days its 'yesterday'/'昨日' resolve to, episode and context date headers, the chat "
        "proxy's memory dates) and of 'today'/'先週' filters.",
    )
    importance_weight: float = setting(
        0.1, "Blend of FSRS strength into search ranking: score × ((1 − w) + w·strength).", 0, 1
    )
    dedup_threshold: float = setting(
        0.85,
        "Spec-scale cosine above which a new memory is a duplicate unless a value changed "
        "(calibrated per embedder).",
        0.5,
        1,
    )
    evolution_threshold: float = setting(
        0.8, "Spec-scale cosine from which an existing memory is an evolution neighbour.", 0.5, 1
    )
    evolution_max_neighbours: int = setting(3, "Neighbours touched by one evolution.", 0, 20)
    evolution_min_chars: int = setting(
        30,
        "A new memory shorter than this links to no neighbours (its classification still "
        "runs); a wide character (kanji, kana, Hangul, full-width) counts two, so the minimum "
        "asks as much of Japanese as of English.",
        0,
        10000,
    )
    classify_band_low: float = setting(
        0.35,
        "Spec-scale cosine from which a memory is a classification candidate (keeps 95% of "
        "the shared dev set's changing pairs with either embedder: bench/classify_band.py; "
        "what a server closes among many memories: bench/classify_store.py).",
        0,
        1,
    )
    classify_max_candidates: int = setting(5, "Candidates judged per new memory.", 0, 20)
    classify_nearest_low: float = setting(
        0.2,
        "Spec-scale cosine from which the nearest memory is judged when none reaches "
        "classify_band_low; it is closed only on a verdict of classify_nearest_confidence "
        "(engine/candidates.py; bench/results/classify_e2e31.md).",
        0,
        1,
    )
    classify_nearest_confidence: float = setting(
        0.97,
        "Confidence a CONTRADICTORY verdict needs to close that nearest memory under "
        "classify_band_low (nothing is extended from there), or a memory past the same fact "
        "said before (engine/candidates.py stands_clear); the LLM classifier's verdicts "
        "carry its own level: certain 0.98, likely 0.8 (also when it gives none), unsure 0.5 "
        "(docs/llm.md).",
        0,
        1,
    )
    classifier: str = setting(
        "auto",
        "3-op classifier: auto (LLM when configured), offline, llm.",
        choices=("auto", "offline", "llm"),
    )
    segmenter: str = setting(
        "offline",
        "Episode segmentation: offline, llm (one LLM call per adjacent turn pair, offline "
        "fallback), auto (llm when an LLM is configured).",
        choices=("offline", "llm", "auto"),
    )
    recall_stability_factor: float = setting(1.5, "Stability multiplier on each recall.", 1, 10)
    stability_cap_days: float = setting(365.0, "Upper bound of stability in days.", 1, 36500)
    recall_min_interval_hours: float = setting(
        1.0, "A memory is strengthened by recall at most once per this many hours.", 0, 8760
    )
    decay_interval_hours: float = setting(
        6.0, "How often the decay job recomputes strength.", 0.01, 8760
    )
    keyword_weight: float = setting(
        0.4,
        "Weight of the keyword (BM25) list in hybrid fusion "
        "(convex fusion: BM25 coverage + min-max cosine; measured with e5 by bench/retrieval.py "
        "and bench/locomo.py).",
        0,
        10,
    )
    semantic_weight: float = setting(0.6, "Weight of the vector list in hybrid fusion.", 0, 10)
    surprise_threshold: float = setting(
        0.7, "Surprise above which an episode boundary is cut.", 0, 1
    )
    min_segment_turns: int = setting(3, "Shorter segments merge into the previous one.", 1, 100)
    episode_consolidation_enabled: bool = setting(True, "Consolidate episodes into notes.")
    episode_search_enabled: bool = setting(
        True,
        "Default search ranks conversation excerpts beside notes (include_episodes "
        "overrides it per request).",
    )
    session_idle_minutes: float = setting(
        30.0,
        "An open session with no new turn for this long is ended by the scheduler, exactly "
        "like session_end (segmentation, consolidation, user state); 0 disables.",
        0,
        525600,
    )
    keep_recent: int = setting(6, "Chat turns kept verbatim by compaction.", 0, 200)
    context_use_llm_summary: bool = setting(True, "Stage-4 LLM summary in chat compaction.")
    summary_max_chars: int = setting(300, "Maximum length of the stage-4 summary.", 50, 5000)
    chat_budget_tokens: int = setting(
        6000,
        "Chat proxy: tokens the whole request may use before compaction (an 8k-context "
        "model with room for the reply).",
        200,
        2_000_000,
    )
    chat_memory_budget_tokens: int = setting(
        800,
        "Chat proxy: tokens of blocks, state and memories added to the system prompt.",
        0,
        100_000,
    )
    context_include_blocks: bool = setting(
        False, "Add named memory blocks to session_begin / get_context."
    )
    context_budget_tokens: int = setting(2000, "Budget of the get_context text.", 100, 100000)
    context_recent_count: int = setting(5, "Recent memories shown in context.", 0, 100)
    context_important_count: int = setting(5, "Strong important memories shown in context.", 0, 100)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def zone(self) -> tzinfo:
        """:attr:`timezone` as a time zone (checked when it was set)."""
        from zoneinfo import ZoneInfo

        return ZoneInfo(self.timezone)


def _declarations() -> tuple[Setting, ...]:
    types = get_type_hints(PersonaSettings)
    return tuple(
        Setting(f.name, types[f.name], f.default, **f.metadata[_DECLARATION])
        for f in fields(PersonaSettings)
    )


PERSONA_SETTINGS: tuple[Setting, ...] = _declarations()

# Settings an older Omoide stored and this one no longer has (docs/settings.md): a stored
# override of one is ignored, an export leaves it out, and an import of a file written before
# (whose settings record may hold it) skips it instead of refusing the file.
RETIRED_SETTINGS = frozenset({"memory_preload_count"})
