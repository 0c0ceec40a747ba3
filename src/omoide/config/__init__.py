"""Settings: the one place that reads the environment.

Two levels:

- :class:`Settings` — process-wide (data folder, bind address, embedder, keys, the LLM endpoint
  as a typed :class:`~omoide.llm.LLMConfig`), from ``OMOIDE_*`` environment variables
  (``process.py``).
- :class:`PersonaSettings` — runtime behaviour per persona (thresholds, switches, budgets). Each
  field's default comes from ``OMOIDE_<NAME>`` when set, else from :data:`PERSONA_SETTINGS`
  (``persona.py``); overrides are stored per persona in the database and merged by
  :func:`merge_persona_settings` (``persona_values.py``, which checks every value).

Every setting is declared once with a default and a one-line help text; the docs table, the
settings API and the dashboard form are all derived from these declarations.
"""

from omoide.config.persona import (
    PERSONA_SETTINGS,
    RETIRED_SETTINGS,
    PersonaSettings,
    Setting,
    setting,
)
from omoide.config.persona_values import (
    iana_zones,
    kept_overrides,
    merge_persona_settings,
    validate_setting_patch,
)
from omoide.config.process import (
    Settings,
    llm_config_from_env,
    log_format_from_env,
    warn_unknown_environ,
)

__all__ = [
    "PERSONA_SETTINGS",
    "RETIRED_SETTINGS",
    "PersonaSettings",
    "Setting",
    "Settings",
    "iana_zones",
    "kept_overrides",
    "llm_config_from_env",
    "log_format_from_env",
    "merge_persona_settings",
    "setting",
    "validate_setting_patch",
    "warn_unknown_environ",
]
