"""Settings: the one place that reads the environment.

Two levels:

- :class:`Settings` — process-wide (data folder, bind address, embedder, keys, the LLM endpoint
  as a typed :class:`~omoide.llm.LLMConfig`), from ``OMOIDE_*`` environment variables.
- :class:`PersonaSettings` — runtime behaviour per persona (thresholds, switches, budgets). Each
  field's default comes from ``OMOIDE_<NAME>`` when set, else from :data:`PERSONA_SETTINGS`;
  overrides are stored per persona in the database and merged by :func:`merge_persona_settings`.

Every setting is declared once with a default and a one-line help text; the docs table, the
settings API and the dashboard form are all derived from these declarations.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import tzinfo
from pathlib import Path
from typing import Any, get_type_hints

from omoide.engine.errors import named, quoted, short_json
from omoide.engine.number_text import REFUSED, read_integer, read_number, refusal
from omoide.engine.width import half_width
from omoide.errors import InvalidInput
from omoide.llm import DEFAULT_BASE_URLS, LLMConfig, check_llm_config

__all__ = [
    "PERSONA_SETTINGS",
    "PersonaSettings",
    "Setting",
    "Settings",
    "llm_config_from_env",
    "log_format_from_env",
    "merge_persona_settings",
    "setting",
    "validate_setting_patch",
]


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
_BY_NAME = {s.name: s for s in PERSONA_SETTINGS}


def _coerce(setting: Setting, value: Any, origin: str) -> Any:
    """Check one value against its declaration; ``origin`` names where it came from. A refused
    value is echoed as JSON writes it (``true``, ``"x"``), a body's or a variable's alike."""
    kind = setting.type
    if kind is bool:
        if isinstance(value, bool):
            result: Any = value
        elif isinstance(value, str) and half_width(value).lower() in {"1", "true", "yes", "on"}:
            result = True
        elif isinstance(value, str) and half_width(value).lower() in {"0", "false", "no", "off"}:
            result = False
        else:
            raise InvalidInput(
                f"{origin} must be true or false, got {short_json(value)}", setting=setting.name
            )
    elif kind in (int, float):
        if isinstance(value, bool):
            raise InvalidInput(
                f"{origin} must be a number, got {short_json(value)}", setting=setting.name
            )
        if isinstance(value, str):  # the environment's and the dashboard form's text
            value = _number_text(value, kind, setting, origin)
        try:
            result = kind(value)
        except (TypeError, ValueError, OverflowError):
            raise InvalidInput(
                f"{origin} must be {'an integer' if kind is int else 'a number'}, got "
                f"{short_json(value)}",
                setting=setting.name,
            ) from None
        if isinstance(result, float) and not math.isfinite(result):
            raise InvalidInput(
                f"{origin} must be a finite number, got {short_json(value)}", setting=setting.name
            )
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise InvalidInput(
                f"{origin} must be an integer, got {short_json(value)}", setting=setting.name
            )
        if setting.minimum is not None and result < setting.minimum:
            raise InvalidInput(
                f"{origin} must be ≥ {setting.minimum}, got {short_json(value)}",
                setting=setting.name,
            )
        if setting.maximum is not None and result > setting.maximum:
            raise InvalidInput(
                f"{origin} must be ≤ {setting.maximum}, got {short_json(value)}",
                setting=setting.name,
            )
    else:
        if not isinstance(value, str):
            raise InvalidInput(
                f"{origin} must be a string, got {short_json(value)}", setting=setting.name
            )
        result = value
        if setting.choices and value not in setting.choices:
            raise InvalidInput(
                f"{origin} must be one of {', '.join(setting.choices)}, got {short_json(value)}",
                setting=setting.name,
            )
    if setting.name == "timezone":
        _check_timezone(result, origin)
    return result


def _number_text(text: str, kind: type, setting: Setting, origin: str) -> int | float:
    """Text read as the JSON number it writes (``engine.number_text``: the one reader of a
    number typed as text), so that it is then checked, with the same messages, as the HTTP API
    checks that number in a body."""
    try:  # the API's reader: beyond ±(2^53 - 1) alike
        return read_number(text, kind=kind)
    except REFUSED as exc:
        raise InvalidInput(refusal(origin, exc), setting=setting.name) from None


@functools.cache
def iana_zones() -> frozenset[str]:
    """The time zone names a setting accepts: the IANA database's, without ``localtime`` (a
    link to whatever zone the machine is set to, not a zone of its own)."""
    from zoneinfo import available_timezones

    return frozenset(available_timezones() - {"localtime"})


def _check_timezone(name: str, origin: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
        known = name in iana_zones()  # else a file of the zone folder that is no zone name
    except (ZoneInfoNotFoundError, ValueError):
        known = False
    if not known:
        raise InvalidInput(
            f"{origin} is not a known IANA time zone: {quoted(name)} ({_zone_hint(name)})",
            setting="timezone",
        )


def _zone_hint(name: str) -> str:
    """ "did you mean 'Asia/Tokyo'?" for 'asia/tokyo' or 'Asia/Tokyo ' (the zone names are
    case-sensitive), else examples and what is not a zone (JST, +09:00)."""
    folded = name.strip().casefold()
    match = next((zone for zone in sorted(iana_zones()) if zone.casefold() == folded), None)
    if match is not None:
        return f"did you mean {match!r}?"
    return (
        "e.g. Asia/Tokyo, Europe/Paris, UTC; an abbreviation such as JST or an offset "
        "such as +09:00 is not a zone name"
    )


def validate_setting_patch(patch: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a partial ``{name: value}`` map of persona settings; unknown names are refused."""
    clean: dict[str, Any] = {}
    for name, value in patch.items():
        setting = _BY_NAME.get(name)
        if setting is None:
            raise InvalidInput(
                f"unknown setting {named(name)}; known settings: {', '.join(sorted(_BY_NAME))}",
                setting=named(name)[1:-1],
            )
        clean[name] = _coerce(setting, value, f"setting {name!r}")
    return clean


def persona_defaults(environ: Mapping[str, str]) -> PersonaSettings:
    """Defaults for every persona: the declarations, overridden by ``OMOIDE_<NAME>``."""
    overrides = {}
    for setting in PERSONA_SETTINGS:
        var = f"OMOIDE_{setting.name.upper()}"
        if var in environ:
            overrides[setting.name] = _coerce(setting, environ[var], var)
    defaults = replace(PersonaSettings(), **overrides)
    if defaults.keyword_weight + defaults.semantic_weight == 0:  # every search was refused
        raise InvalidInput(
            "OMOIDE_KEYWORD_WEIGHT and OMOIDE_SEMANTIC_WEIGHT cannot both be 0 "
            "(search would have no ranking signal); keep one above 0"
        )
    return defaults


def merge_persona_settings(
    defaults: PersonaSettings, stored: Mapping[str, Any], *, as_stored: bool = False
) -> PersonaSettings:
    """A persona's effective settings: stored overrides (still valid ones) over the defaults.

    A stored value that is no longer valid (e.g. a NaN stored before NaN was refused) falls
    back to the default instead of breaking every request of the persona. So do the two search
    weights when the overrides and the defaults together leave both at 0 (an override of one
    stored while the server's other weight was above 0, then the server restarted with that
    weight at 0): the server's pair applies, which :func:`persona_defaults` keeps above 0.
    ``as_stored`` skips that fallback, for the check of a change before it is stored.
    """
    known: dict[str, Any] = {}
    for name, value in stored.items():
        if name in _BY_NAME:
            with contextlib.suppress(InvalidInput):
                known.update(validate_setting_patch({name: value}))
    merged = replace(defaults, **known)
    if not as_stored and merged.keyword_weight + merged.semantic_weight == 0:
        merged = replace(
            merged, keyword_weight=defaults.keyword_weight, semantic_weight=defaults.semantic_weight
        )
    return merged


def _env_lease(environ: Mapping[str, str]) -> float:
    var, raw = "OMOIDE_JOB_LEASE_SECONDS", environ.get("OMOIDE_JOB_LEASE_SECONDS")
    if raw is None or raw == "":
        return 60.0
    value = _number_in(raw, var, float)
    if not 1.0 <= value <= 86_400.0:
        raise InvalidInput(f"{var} must be between 1 and 86400 seconds, got {quoted(raw)}")
    return value


def _env_int(environ: Mapping[str, str], var: str, default: int) -> int:
    raw = environ.get(var)
    if raw is None or raw == "":
        return default
    return int(_number_in(raw, var, int))


def _number_in(raw: str, var: str, kind: type) -> int | float:
    """A process variable's number, read as a persona setting's is (``engine.number_text``):
    ``OMOIDE_PORT=8_765`` is refused, as ``int()`` read it as 8765."""
    try:
        return read_integer(raw) if kind is int else read_number(raw, kind=kind)
    except REFUSED as exc:
        raise InvalidInput(refusal(var, exc)) from None


# Process integers that only make sense from a least value: below it, OMOIDE_MAX_BODY_BYTES
# refused every request with a 413 and OMOIDE_WORKERS=-1 ran no worker without a word.
_PROCESS_INT_MINIMA = (
    ("workers", "OMOIDE_WORKERS", 0),
    ("embed_threads", "OMOIDE_EMBED_THREADS", 1),
    ("embed_batch", "OMOIDE_EMBED_BATCH", 1),
    ("max_body_bytes", "OMOIDE_MAX_BODY_BYTES", 1),
    ("max_import_bytes", "OMOIDE_MAX_IMPORT_BYTES", 1),
)

DASHBOARD_SECRET_MIN_CHARS = 32


def _env_dashboard_secret(environ: Mapping[str, str]) -> str | None:
    raw = (environ.get("OMOIDE_DASHBOARD_SECRET") or "").strip()
    if not raw:
        return None
    if len(raw) < DASHBOARD_SECRET_MIN_CHARS:
        raise InvalidInput(
            f"OMOIDE_DASHBOARD_SECRET must be at least "
            f"{DASHBOARD_SECRET_MIN_CHARS} characters (got {len(raw)}); "
            "e.g. the output of `openssl rand -hex 32`"
        )
    return raw


def _env_float(environ: Mapping[str, str], var: str, default: float) -> float:
    raw = environ.get(var)
    if raw is None or raw == "":
        return default
    return float(_number_in(raw, var, float))


def log_format_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``OMOIDE_LOG_FORMAT``: auto (JSON lines unless stderr is a terminal), json or text."""
    env = os.environ if environ is None else environ
    value = (env.get("OMOIDE_LOG_FORMAT") or "auto").lower()
    if value not in ("auto", "json", "text"):
        raise InvalidInput(f"OMOIDE_LOG_FORMAT must be auto, json or text, got {quoted(value)}")
    return value


def _env_number(
    env: Mapping[str, str], name: str, cast: type[int] | type[float], default: float
) -> float:
    if name not in env:
        return default
    try:
        return _number_in(env[name], name, cast)
    except InvalidInput as exc:
        raise InvalidInput(exc.message, field=name) from None


def llm_config_from_env(environ: Mapping[str, str]) -> LLMConfig:
    """Read the ``OMOIDE_LLM_*`` variables; empty values count as unset.

    Checks each value it reads; whether the whole is enough (a model, a key) is checked by
    ``make_llm``, so ``provider=none`` with stray variables stays valid.
    """
    env = {k: v.strip() for k, v in environ.items() if k.startswith("OMOIDE_LLM_") and v.strip()}
    provider = env.get("OMOIDE_LLM_PROVIDER", "none").lower()
    defaults = LLMConfig()
    cfg = LLMConfig(
        provider=provider,
        base_url=env.get("OMOIDE_LLM_BASE_URL", DEFAULT_BASE_URLS.get(provider)),
        api_key=env.get("OMOIDE_LLM_API_KEY"),
        model=env.get("OMOIDE_LLM_MODEL"),
        timeout_s=_env_number(env, "OMOIDE_LLM_TIMEOUT", float, defaults.timeout_s),
        max_retries=int(_env_number(env, "OMOIDE_LLM_MAX_RETRIES", int, defaults.max_retries)),
    )
    check_llm_config(cfg)
    return cfg


SEARCH_COMPANIONS = ("auto", "off", "e5", "use")


@dataclass(frozen=True)
class Settings:
    """Process-wide settings (environment variables ``OMOIDE_*``)."""

    data_dir: Path = Path("data")
    host: str = "127.0.0.1"
    port: int = 8765
    admin_key: str | None = None
    # OMOIDE_DASHBOARD_SECRET: signs dashboard cookies; the same on every server behind one
    # load balancer (else each server makes its own ``<data>/dashboard_secret``)
    dashboard_secret: str | None = field(default=None, repr=False)
    embedder: str = "e5"
    embed_threads: int = 1
    # OMOIDE_EMBEDDER=openai: any OpenAI-compatible /v1/embeddings endpoint (docs/import.md)
    embed_base_url: str | None = None
    embed_model: str | None = None
    embed_api_key: str | None = field(default=None, repr=False)
    embed_batch: int = 64
    embed_timeout_s: float = 30.0
    workers: int = 1
    job_lease_s: float = 60.0  # a claimed job is taken back this long after its last heartbeat
    database_url: str | None = None  # OMOIDE_DATABASE_URL: PostgreSQL instead of the SQLite file
    pg_ann_rows: int = 100_000  # OMOIDE_PG_ANN_ROWS: a persona this large is searched by HNSW
    # OMOIDE_SEARCH_COMPANION: the second embedder hybrid search consults (auto: USE beside
    # e5, none beside USE or any other embedder), off, e5 or use
    search_companion: str = "auto"
    # OMOIDE_VECTOR_CACHE: embedded vectors kept in memory, shared by the 3-op judge, dedup,
    # the search companion and search's query vectors (service/vector_cache.py)
    vector_cache: int = 10_000
    max_content_chars: int = 50_000
    max_body_bytes: int = 1_000_000  # OMOIDE_MAX_BODY_BYTES: larger request bodies get 413
    max_import_bytes: int = 1 << 30  # OMOIDE_MAX_IMPORT_BYTES: a file upload (streamed to disk)
    mcp_max_sessions: int = 256
    mcp_session_idle_minutes: float = 30.0
    # OMOIDE_CHAT_SUMMARY_COOLDOWN: after a failed stage-4 summary call, the chat proxy sends the
    # stage-3 result without asking the LLM for this many seconds (0: ask every time)
    chat_summary_cooldown_s: float = 60.0
    persona_defaults: PersonaSettings = field(default_factory=PersonaSettings)
    llm: LLMConfig = field(default_factory=LLMConfig)  # provider "none": no LLM

    @property
    def embed_options(self) -> dict[str, Any]:
        """What an external embedder needs besides its name (``make_embedder``)."""
        return {
            "base_url": self.embed_base_url,
            "model": self.embed_model,
            "api_key": self.embed_api_key,
            "batch": self.embed_batch,
            "timeout_s": self.embed_timeout_s,
        }

    @property
    def db_path(self) -> Path:
        return self.data_dir / "omoide.db"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if environ is None else environ)
        # Each value is read when no override (a command-line flag) gives it, so a flag wins
        # over a bad environment value instead of failing on a variable it replaces.
        readers: dict[str, Callable[[], Any]] = {
            "data_dir": lambda: Path(env.get("OMOIDE_DATA") or "data"),
            "host": lambda: env.get("OMOIDE_HOST") or "127.0.0.1",
            "port": lambda: _env_int(env, "OMOIDE_PORT", 8765),
            "admin_key": lambda: env.get("OMOIDE_ADMIN_KEY") or None,
            "dashboard_secret": lambda: _env_dashboard_secret(env),
            "embedder": lambda: env.get("OMOIDE_EMBEDDER") or "e5",
            "embed_threads": lambda: _env_int(env, "OMOIDE_EMBED_THREADS", 1),
            "embed_base_url": lambda: env.get("OMOIDE_EMBED_BASE_URL") or None,
            "embed_model": lambda: env.get("OMOIDE_EMBED_MODEL") or None,
            "embed_api_key": lambda: env.get("OMOIDE_EMBED_API_KEY") or None,
            "embed_batch": lambda: _env_int(env, "OMOIDE_EMBED_BATCH", 64),
            "embed_timeout_s": lambda: _env_float(env, "OMOIDE_EMBED_TIMEOUT", 30.0),
            "workers": lambda: _env_int(env, "OMOIDE_WORKERS", 1),
            "max_body_bytes": lambda: _env_int(env, "OMOIDE_MAX_BODY_BYTES", 1_000_000),
            "max_import_bytes": lambda: _env_int(env, "OMOIDE_MAX_IMPORT_BYTES", 1 << 30),
            "job_lease_s": lambda: _env_lease(env),
            "mcp_max_sessions": lambda: _env_int(env, "OMOIDE_MCP_MAX_SESSIONS", 256),
            "mcp_session_idle_minutes": lambda: _env_float(
                env, "OMOIDE_MCP_SESSION_IDLE_MINUTES", 30.0
            ),
            "chat_summary_cooldown_s": lambda: _env_float(
                env, "OMOIDE_CHAT_SUMMARY_COOLDOWN", 60.0
            ),
            "database_url": lambda: (env.get("OMOIDE_DATABASE_URL") or "").strip() or None,
            "pg_ann_rows": lambda: _env_int(env, "OMOIDE_PG_ANN_ROWS", 100_000),
            "search_companion": lambda: (
                (env.get("OMOIDE_SEARCH_COMPANION") or "auto").strip().lower()
            ),
            "vector_cache": lambda: _env_int(env, "OMOIDE_VECTOR_CACHE", 10_000),
            "persona_defaults": lambda: persona_defaults(env),
            "llm": lambda: llm_config_from_env(env),
        }
        given = {k: v for k, v in overrides.items() if v is not None}
        values: dict[str, Any] = {
            **{k: read() for k, read in readers.items() if k not in given},
            **given,
        }
        if values["pg_ann_rows"] < 1:
            raise InvalidInput("OMOIDE_PG_ANN_ROWS must be at least 1")
        if not 0 <= values["port"] <= 65535:  # a traceback from bind() at start-up before
            raise InvalidInput(f"OMOIDE_PORT (--port) must be 0-65535, got {values['port']}")
        for name, var, least in _PROCESS_INT_MINIMA:
            if values[name] < least:
                raise InvalidInput(f"{var} must be at least {least}, got {values[name]}")
        if values["search_companion"] not in SEARCH_COMPANIONS:
            raise InvalidInput(
                f"OMOIDE_SEARCH_COMPANION must be one of {', '.join(SEARCH_COMPANIONS)}"
            )
        if "OMOIDE_SEARCH_COMPANION_CACHE" in env:
            raise InvalidInput(
                "OMOIDE_SEARCH_COMPANION_CACHE is now OMOIDE_VECTOR_CACHE (one "
                "cache for the search companion, the 3-op judge, dedup and "
                "search queries)"
            )
        if values["vector_cache"] < 0:
            raise InvalidInput("OMOIDE_VECTOR_CACHE must be at least 0")
        if values["mcp_max_sessions"] < 1:
            raise InvalidInput("OMOIDE_MCP_MAX_SESSIONS must be at least 1")
        if not values["mcp_session_idle_minutes"] > 0:
            raise InvalidInput("OMOIDE_MCP_SESSION_IDLE_MINUTES must be above 0")
        if not values["chat_summary_cooldown_s"] >= 0:
            raise InvalidInput("OMOIDE_CHAT_SUMMARY_COOLDOWN must be 0 or more seconds")
        if isinstance(values["data_dir"], str):
            values["data_dir"] = Path(values["data_dir"])
        _check_data_folder(values["data_dir"])
        return cls(**values)


def _check_data_folder(path: Path) -> None:
    """A data folder that is a file (``--data notes.txt``, ``/dev/null``) or lies under one
    stopped every command with a NotADirectoryError traceback from the lock or the database; a
    missing folder is fine (it is created)."""
    existing = path
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        where = "is" if existing == path else f"lies under {str(existing)!r}, which is"
        raise InvalidInput(
            f"OMOIDE_DATA (--data) {str(path)!r} {where} not a folder; give a "
            "folder (it is created when missing)"
        )
