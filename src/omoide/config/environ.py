"""The ``OMOIDE_*`` variables Omoide reads, and one warning at start for any other: a typo
(``OMOIDE_PROT``) or a retired name (``OMOIDE_MEMORY_PRELOAD_COUNT``) would otherwise be
ignored without a word. Start-up goes on: the variable is only ignored, as before."""

from __future__ import annotations

import difflib
import logging
from collections.abc import Mapping

from omoide.config.persona import PERSONA_SETTINGS

__all__ = ["PROCESS_VARIABLES", "RETIRED_VARIABLES", "unknown_variables", "warn_unknown"]

logger = logging.getLogger("omoide.config")

_PREFIX = "OMOIDE_"

# Every process variable (config/process.py and the log setup); the per-persona defaults'
# OMOIDE_<NAME> come from PERSONA_SETTINGS.
PROCESS_VARIABLES = frozenset(
    {
        *("OMOIDE_DATA", "OMOIDE_HOST", "OMOIDE_PORT", "OMOIDE_ADMIN_KEY", "OMOIDE_WORKERS"),
        *("OMOIDE_DASHBOARD_SECRET", "OMOIDE_EMBEDDER", "OMOIDE_EMBED_THREADS"),
        *("OMOIDE_EMBED_BASE_URL", "OMOIDE_EMBED_MODEL", "OMOIDE_EMBED_API_KEY"),
        *("OMOIDE_EMBED_BATCH", "OMOIDE_EMBED_TIMEOUT", "OMOIDE_MAX_BODY_BYTES"),
        *("OMOIDE_MAX_IMPORT_BYTES", "OMOIDE_JOB_LEASE_SECONDS", "OMOIDE_MCP_MAX_SESSIONS"),
        *("OMOIDE_MCP_SESSION_IDLE_MINUTES", "OMOIDE_CHAT_SUMMARY_COOLDOWN"),
        *("OMOIDE_DATABASE_URL", "OMOIDE_PG_ANN_ROWS", "OMOIDE_PG_POOL_SIZE"),
        *("OMOIDE_PG_POOL_WAIT", "OMOIDE_SEARCH_COMPANION", "OMOIDE_VECTOR_CACHE"),
        *("OMOIDE_LLM_PROVIDER", "OMOIDE_LLM_BASE_URL", "OMOIDE_LLM_API_KEY"),
        *("OMOIDE_LLM_MODEL", "OMOIDE_LLM_TIMEOUT", "OMOIDE_LLM_MAX_RETRIES"),
        "OMOIDE_LOG_FORMAT",
        "OMOIDE_SEARCH_COMPANION_CACHE",  # retired, and refused naming its successor
    }
)

# A retired name: what became of it (docs/settings.md).
RETIRED_VARIABLES = {
    "OMOIDE_MEMORY_PRELOAD_COUNT": (
        "is retired (the setting memory_preload_count is gone: default search ranks notes and "
        "conversation excerpts together; the search plan episode_fallback keeps its rule)"
    ),
}


def _known() -> frozenset[str]:
    persona = {f"{_PREFIX}{s.name.upper()}" for s in PERSONA_SETTINGS}
    return PROCESS_VARIABLES | persona


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """A line for each ``OMOIDE_*`` variable of ``environ`` Omoide does not read, in name
    order: retired, or unknown with the closest known name when one is close."""
    known = _known()
    suffixes = {name.removeprefix(_PREFIX): name for name in known}
    said = []
    for name in sorted(environ):
        if not name.startswith(_PREFIX) or name in known:
            continue
        if name in RETIRED_VARIABLES:
            said.append(f"{name} {RETIRED_VARIABLES[name]}")
            continue
        close = difflib.get_close_matches(name.removeprefix(_PREFIX), sorted(suffixes), n=1)
        hint = f" (did you mean {suffixes[close[0]]}?)" if close else ""
        said.append(f"{name} is not a variable Omoide reads{hint}")
    return said


def warn_unknown(environ: Mapping[str, str]) -> None:
    """One WARNING naming every ``OMOIDE_*`` variable of ``environ`` Omoide does not read,
    if any (``config.process.warn_unknown_environ`` gives it the process's)."""
    said = unknown_variables(environ)
    if said:
        logger.warning("ignored environment: %s", "; ".join(said))
