"""Bi-temporal state use cases: what the persona knows about the user, and its own state.

User state (spec §Bi-temporal User State Tracking) holds facts such as ``name``, ``nickname``
and ``preferred_address``; persona state holds ``emotion``, ``emotion_intensity``, ``mood``,
``current_activity`` and ``goals``. Both accept other keys too. A change closes the current value
and opens the new one in one transaction; an unchanged value writes nothing; a value given as
``None`` (JSON null) closes the key: its current value stops being true now, its history is
kept, and the key is no longer current. This module validates and delegates; SQL lives in
``store/sqlite/state.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omoide.clock import Clock
from omoide.engine.errors import quoted, too_long, too_many
from omoide.errors import InvalidInput
from omoide.model import StateEntry, StateKind
from omoide.service.validate import (
    MAX_INT,
    MIN_INT,
    NON_BLANK_RULE,
    TEXT_CONTROLS,
    WHITESPACE,
    check_controls,
    check_state_key,
    check_text,
    check_timestamp,
    is_blank,
    matches,
)
from omoide.store.port import Store

__all__ = [
    "INTENSITY_PATTERN",
    "MAX_KEYS_PER_UPDATE",
    "MAX_VALUE_CHARS",
    "PERSONA_STATE_KEYS",
    "STATE_VALUE_PATTERN",
    "USER_STATE_KEYS",
    "StateChanges",
    "StateEntry",
    "StateKind",
    "StateService",
    "check_state_key",
    "check_state_value",
]

USER_STATE_KEYS = ("name", "nickname", "preferred_address")
PERSONA_STATE_KEYS = ("emotion", "emotion_intensity", "mood", "current_activity", "goals")
MAX_VALUE_CHARS = 2000
MAX_KEYS_PER_UPDATE = 50
# A value as text: not blank, at most 2,000 characters once trimmed.
# No control character but tab and line breaks (``TEXT_CONTROLS``).
STATE_VALUE_PATTERN = (
    f"^[{WHITESPACE}]*[^{WHITESPACE}{TEXT_CONTROLS}]"
    f"(?:[^{TEXT_CONTROLS}]{{0,1998}}[^{WHITESPACE}{TEXT_CONTROLS}])?"
    f"[{WHITESPACE}]*$"
)
# ``emotion_intensity`` given as text: a decimal from 0 to 1.
INTENSITY_PATTERN = f"^[{WHITESPACE}]*(?:0(?:[.][0-9]{{1,6}})?|1(?:[.]0{{1,6}})?)[{WHITESPACE}]*$"
_FIELD = {StateKind.USER: "user_info", StateKind.PERSONA: "persona_state"}


@dataclass(frozen=True)
class StateChanges:
    """The keys an update actually changed, per kind (unchanged values are not listed)."""

    user: list[str]
    persona: list[str]


def _check_value(key: str, value: Any, field: str) -> str:
    """Text (not blank, at most 2,000 characters once trimmed) or a finite number, kept as its
    text; ``emotion_intensity`` is a number from 0 to 1 (or its decimal text). (An update's
    ``None``, which closes the key, is taken before: :func:`_check_map`.)"""
    where = f"{field}.{key}" if field else key
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(value, float) and not math.isfinite(value):  # an int is (10**400 too)
        raise InvalidInput(f"{where} must be a finite number, got {quoted(value)}", field=where)
    if number and not MIN_INT <= value <= MAX_INT:  # as HTTP's guard refuses it in any body
        raise InvalidInput(
            f"{where} is a number outside ±(2^53 − 1), which a JSON parser reads "
            "back rounded; send it as text",
            field=where,
        )
    in_range = (
        (0 <= value <= 1)
        if number
        else (isinstance(value, str) and matches(INTENSITY_PATTERN, value))
    )
    if key == "emotion_intensity" and not in_range:
        raise InvalidInput(
            f"{where} must be a number between 0 and 1 (as text: at most 6 "
            f'decimals, e.g. "0.75"), got {quoted(value)}',
            field=where,
        )
    if number:
        return repr(value) if isinstance(value, float) else str(value)
    if not isinstance(value, str):
        hint = " (join several values with '; ')" if isinstance(value, list) else ""
        raise InvalidInput(
            f"{where} must be a string or a number{hint}, got {quoted(value)}", field=where
        )
    if is_blank(value):
        raise InvalidInput(f"{where} {NON_BLANK_RULE}", field=where)
    check_controls(check_text(value.strip(), where), where, lines=True)
    if not matches(STATE_VALUE_PATTERN, value):  # what is left: the length
        raise InvalidInput(
            too_long(where, MAX_VALUE_CHARS, value.strip()),
            field=where,
        )
    return check_text(value.strip(), where)


def check_state_value(key: str, value: Any, field: str = "value") -> str:
    """A state value as an update through the API must give it (an import's state record)."""
    return _check_value(key, value, field)


def _check_map(values: Any, kind: StateKind, *, flat: bool = False) -> dict[str, str | None]:
    """Each key checked, each value checked as text; ``None`` stays None: close the key.
    ``flat``: the map is the whole request body (``PUT /api/user-state/{p}``), so a refusal's
    ``field`` is the key as sent (``name``), not ``user_info.name``."""
    field = "" if flat else _FIELD[kind]
    label = field or "the request body"
    if not isinstance(values, Mapping):
        raise InvalidInput(f"{label} must be a JSON object of key → value", field=field or None)
    if len(values) > MAX_KEYS_PER_UPDATE:
        raise InvalidInput(
            too_many(label, MAX_KEYS_PER_UPDATE, len(values), "keys per update"),
            field=field or None,
        )
    return {
        check_state_key(k, field=field or str(k)): None if v is None else _check_value(k, v, field)
        for k, v in values.items()
    }


class StateService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    # -- user state ----------------------------------------------------------------------

    def get_current_user_state(self, persona: str) -> dict[str, str]:
        return self.current(persona, StateKind.USER)

    def get_user_state_history(self, persona: str, key: Any, at: Any = None) -> list[StateEntry]:
        return self.history(persona, StateKind.USER, key, at)

    def update_user_state(
        self, persona: str, values: Any, *, source_session: str | None = None, flat: bool = False
    ) -> list[str]:
        """Set user state values; ``source_session`` names the conversation they were learned
        from, so that deleting it erases them; ``flat``: ``values`` is the whole request body
        (refusals name the key alone)."""
        return self.update(persona, user=values, source_session=source_session, flat=flat).user

    # -- persona state -------------------------------------------------------------------

    def get_current_persona_state(self, persona: str) -> dict[str, str]:
        return self.current(persona, StateKind.PERSONA)

    def get_persona_state_history(self, persona: str, key: Any, at: Any = None) -> list[StateEntry]:
        return self.history(persona, StateKind.PERSONA, key, at)

    def update_persona_state(self, persona: str, values: Any, *, flat: bool = False) -> list[str]:
        return self.update(persona, persona_state=values, flat=flat).persona

    # -- both ----------------------------------------------------------------------------

    def update(
        self,
        persona: str,
        *,
        user: Any = None,
        persona_state: Any = None,
        source_session: str | None = None,
        flat: bool = False,
    ) -> StateChanges:
        """Validate both maps first, then write every change in ONE transaction. A key given
        None is closed (listed as changed when it had a current value)."""
        changes: dict[StateKind, dict[str, str | None]] = {}
        if user is not None:
            changes[StateKind.USER] = _check_map(user, StateKind.USER, flat=flat)
        if persona_state is not None:
            changes[StateKind.PERSONA] = _check_map(persona_state, StateKind.PERSONA, flat=flat)
        state = self.store.state(persona)
        changed = (
            state.apply(changes, now=self.clock.now(), source_session=source_session)
            if changes
            else {}
        )
        return StateChanges(
            user=changed.get(StateKind.USER, []), persona=changed.get(StateKind.PERSONA, [])
        )

    def current(self, persona: str, kind: StateKind) -> dict[str, str]:
        """The current value of every key."""
        return {k: e.value for k, e in self.store.state(persona).current(kind).items()}

    def closed_keys(self, persona: str, kind: StateKind) -> list[str]:
        """Keys that held a value and hold none now (closed with null): their history is
        kept and readable with :meth:`history`."""
        state = self.store.state(persona)
        current = state.current(kind)
        return [key for key in state.keys(kind) if key not in current]

    def history(self, persona: str, kind: StateKind, key: Any, at: Any = None) -> list[StateEntry]:
        """Oldest first; with ``at`` (ISO time), only the row valid then (or nothing)."""
        if key is None or key == "":
            raise InvalidInput("key is required, e.g. key=name", field="key")
        key = check_state_key(key)
        state = self.store.state(persona)
        if at == "":  # as HTTP and MCP refuse it: it read the whole history, as if no `at`
            raise InvalidInput('at must not be empty, got ""', field="at")
        when = check_timestamp(at, "at")
        if when is None:
            return state.history(kind, key)
        entry = state.valid_at(kind, key, when)
        return [] if entry is None else [entry]
