"""Process-wide settings (:class:`Settings`: data folder, bind address, embedder, keys, the LLM
endpoint as a typed :class:`~omoide.llm.LLMConfig`), read from ``OMOIDE_*`` environment
variables: the one module that reads the environment."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omoide.config.environ import warn_unknown
from omoide.config.persona import PersonaSettings
from omoide.config.persona_values import persona_defaults
from omoide.engine.errors import path_named, quoted
from omoide.engine.number_text import REFUSED, read_integer, read_number, refusal
from omoide.errors import InvalidInput
from omoide.llm import DEFAULT_BASE_URLS, LLMConfig, check_llm_config, is_http_url

__all__ = ["Settings", "llm_config_from_env", "log_format_from_env"]


def _env_lease(environ: Mapping[str, str]) -> float:
    var, raw = "OMOIDE_JOB_LEASE_SECONDS", environ.get("OMOIDE_JOB_LEASE_SECONDS")
    if raw is None or raw == "":
        return 60.0
    value = _number_in(raw, var, float)
    if not 1.0 <= value <= 86_400.0:
        raise InvalidInput(f"{var} must be between 1 and 86400 seconds, got {value:g}")
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
    ("pg_pool_size", "OMOIDE_PG_POOL_SIZE", 1),
    ("pg_ann_rows", "OMOIDE_PG_ANN_ROWS", 1),
    ("vector_cache", "OMOIDE_VECTOR_CACHE", 0),
    ("mcp_max_sessions", "OMOIDE_MCP_MAX_SESSIONS", 1),
)

DASHBOARD_SECRET_MIN_CHARS = 32
MAX_PORT = 65535


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


def warn_unknown_environ() -> None:
    """One WARNING at start naming each ``OMOIDE_*`` variable of the process Omoide does not
    read: a typo, or a retired name (``config/environ.py``)."""
    warn_unknown(os.environ)


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
    # OMOIDE_PG_POOL_SIZE: connections each process keeps to PostgreSQL at most;
    # OMOIDE_PG_POOL_WAIT: seconds a request waits for one before its 503 storage_unavailable
    pg_pool_size: int = 16
    pg_pool_wait_s: float = 10.0  # = store.postgres.pool.POOL_WAIT_S
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
            "pg_pool_size": lambda: _env_int(env, "OMOIDE_PG_POOL_SIZE", 16),
            "pg_pool_wait_s": lambda: _env_float(env, "OMOIDE_PG_POOL_WAIT", 10.0),
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
        if not 0 <= values["port"] <= MAX_PORT:  # a traceback from bind() at start-up before
            raise InvalidInput(f"OMOIDE_PORT (--port) must be 0-{MAX_PORT}, got {values['port']}")
        for name, var, least in _PROCESS_INT_MINIMA:
            if values[name] < least:
                raise InvalidInput(f"{var} must be at least {least}, got {values[name]}")
        if values["search_companion"] not in SEARCH_COMPANIONS:
            raise InvalidInput(
                f"OMOIDE_SEARCH_COMPANION must be one of {', '.join(SEARCH_COMPANIONS)}, "
                f"got {quoted(values['search_companion'])}"
            )
        if "OMOIDE_SEARCH_COMPANION_CACHE" in env:
            raise InvalidInput(
                "OMOIDE_SEARCH_COMPANION_CACHE is now OMOIDE_VECTOR_CACHE (one "
                "cache for the search companion, the 3-op judge, dedup and "
                "search queries)"
            )
        if not values["mcp_session_idle_minutes"] > 0:
            raise InvalidInput(
                "OMOIDE_MCP_SESSION_IDLE_MINUTES must be above 0, got "
                f"{values['mcp_session_idle_minutes']:g}"
            )
        if not 0 < values["pg_pool_wait_s"] <= 600:
            raise InvalidInput(
                "OMOIDE_PG_POOL_WAIT must be above 0 and at most 600 seconds, got "
                f"{values['pg_pool_wait_s']:g}"
            )
        if not values["chat_summary_cooldown_s"] >= 0:
            raise InvalidInput(
                "OMOIDE_CHAT_SUMMARY_COOLDOWN must be 0 or more seconds, got "
                f"{values['chat_summary_cooldown_s']:g}"
            )
        _check_embed_endpoint(values["embed_base_url"], values["embed_timeout_s"])
        if isinstance(values["data_dir"], str):
            values["data_dir"] = Path(values["data_dir"])
        _check_data_folder(values["data_dir"])
        return cls(**values)


def _check_embed_endpoint(base_url: str | None, timeout_s: float) -> None:
    """``OMOIDE_EMBED_BASE_URL`` and ``OMOIDE_EMBED_TIMEOUT`` checked as their ``OMOIDE_LLM_*``
    twins are: a timeout of 0 failed every embedding as a connection error after four attempts,
    a negative one with a traceback from the socket; a URL without http(s):// the same way."""
    if not timeout_s > 0:
        raise InvalidInput(f"OMOIDE_EMBED_TIMEOUT must be above 0 seconds, got {timeout_s:g}")
    if base_url and not is_http_url(base_url):  # not shown: a URL may carry credentials
        raise InvalidInput("OMOIDE_EMBED_BASE_URL must be an http:// or https:// URL")


def _check_data_folder(path: Path) -> None:
    """A data folder that is a file (``--data notes.txt``, ``/dev/null``) or lies under one
    stopped every command with a NotADirectoryError traceback from the lock or the database; a
    missing folder is fine (it is created)."""
    existing = path
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        where = "is" if existing == path else f"lies under {path_named(existing)}, which is"
        raise InvalidInput(
            f"OMOIDE_DATA (--data) {path_named(path)} {where} not a folder; give a "
            "folder (it is created when missing)"
        )
