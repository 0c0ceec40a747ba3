"""The JSON schema of a state map (``user_info``, ``persona_state``) as both APIs list it: HTTP's
``StateMap`` and MCP's ``update_context`` arguments. The service (``service/state.py``) checks
every key and value by the same rules; the schema says them so that a client's validator does."""

from __future__ import annotations

from typing import Any

from omoide.service.state import MAX_KEYS_PER_UPDATE, STATE_VALUE_PATTERN
from omoide.service.validate import MAX_INT, MIN_INT, STATE_KEY_PATTERN

__all__ = ["STATE_MAP_SCHEMA"]

# keys 1-64 characters (STATE_KEY_PATTERN), at most MAX_KEYS_PER_UPDATE of them; values text,
# finite numbers within the integer bounds, or null (closes the key)
STATE_MAP_SCHEMA: dict[str, Any] = {
    "propertyNames": {"pattern": STATE_KEY_PATTERN},
    "maxProperties": MAX_KEYS_PER_UPDATE,
    "additionalProperties": {
        "anyOf": [
            {"type": "string", "pattern": STATE_VALUE_PATTERN},
            {"type": "number", "minimum": MIN_INT, "maximum": MAX_INT},
            {"type": "null"},
        ]
    },
}
