"""The values a persona setting takes: each checked against its declaration (from a request
body, the dashboard form or an ``OMOIDE_<NAME>`` variable), the defaults every persona starts
from, and a persona's stored overrides merged over them."""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from omoide.config.persona import PERSONA_SETTINGS, PersonaSettings, Setting
from omoide.engine.errors import named, quoted, spelled
from omoide.engine.number_text import REFUSED, read_number, refusal
from omoide.engine.width import half_width
from omoide.errors import InvalidInput

__all__ = [
    "iana_zones",
    "kept_overrides",
    "merge_persona_settings",
    "persona_defaults",
    "validate_setting_patch",
]

_BY_NAME = {s.name: s for s in PERSONA_SETTINGS}


def _coerce(setting: Setting, value: Any, origin: str) -> Any:
    """Check one value against its declaration; ``origin`` names where it came from. A refused
    value is echoed as JSON writes it (``true``, ``"x"``), a body's or a variable's alike."""
    kind = setting.type
    if kind is bool:
        # text: spaces around it ignored, as around a number ("　ｔｒｕｅ　" was refused)
        word = half_width(value).strip().lower() if isinstance(value, str) else None
        if isinstance(value, bool):
            result: Any = value
        elif word in {"1", "true", "yes", "on"}:
            result = True
        elif word in {"0", "false", "no", "off"}:
            result = False
        else:
            raise InvalidInput(
                f"{origin} must be true or false, got {quoted(value)}", setting=setting.name
            )
    elif kind in (int, float):
        if isinstance(value, bool):
            raise InvalidInput(
                f"{origin} must be a number, got {quoted(value)}", setting=setting.name
            )
        if isinstance(value, str):  # the environment's and the dashboard form's text
            value = _number_text(value, kind, setting, origin)
        try:
            result = kind(value)
        except (TypeError, ValueError, OverflowError):
            raise InvalidInput(
                f"{origin} must be {'an integer' if kind is int else 'a number'}, got "
                f"{quoted(value)}",
                setting=setting.name,
            ) from None
        if isinstance(result, float) and not math.isfinite(result):
            raise InvalidInput(
                f"{origin} must be a finite number, got {quoted(value)}", setting=setting.name
            )
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise InvalidInput(
                f"{origin} must be an integer, got {quoted(value)}", setting=setting.name
            )
        if setting.minimum is not None and result < setting.minimum:
            raise InvalidInput(
                f"{origin} must be ≥ {setting.minimum}, got {quoted(value)}",
                setting=setting.name,
            )
        if setting.maximum is not None and result > setting.maximum:
            raise InvalidInput(
                f"{origin} must be ≤ {setting.maximum}, got {quoted(value)}",
                setting=setting.name,
            )
    else:
        if not isinstance(value, str):
            raise InvalidInput(
                f"{origin} must be a string, got {quoted(value)}", setting=setting.name
            )
        result = value
        if setting.choices and value not in setting.choices:
            raise InvalidInput(
                f"{origin} must be one of {', '.join(setting.choices)}, got {quoted(value)}",
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
        return f"did you mean {named(match)}?"
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
                setting=spelled(name),
            )
        clean[name] = _coerce(setting, value, f"setting {named(name)}")
    return clean


def persona_defaults(environ: Mapping[str, str]) -> PersonaSettings:
    """Defaults for every persona: the declarations, overridden by ``OMOIDE_<NAME>`` (an empty
    one counts as unset, as a process variable does: it was refused as no number)."""
    overrides = {}
    for setting in PERSONA_SETTINGS:
        var = f"OMOIDE_{setting.name.upper()}"
        if environ.get(var, "") != "":  # empty counts as unset, as for every OMOIDE_ variable
            overrides[setting.name] = _coerce(setting, environ[var], var)
    defaults = replace(PersonaSettings(), **overrides)
    if defaults.keyword_weight + defaults.semantic_weight == 0:  # every search was refused
        raise InvalidInput(
            "OMOIDE_KEYWORD_WEIGHT and OMOIDE_SEMANTIC_WEIGHT cannot both be 0 "
            "(search would have no ranking signal); keep one above 0"
        )
    return defaults


def kept_overrides(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The stored overrides that still apply: a known setting's valid value. One of a setting
    this Omoide no longer has (``RETIRED_SETTINGS``) or no longer valid (a NaN stored before
    NaN was refused) is ignored where read, and an export leaves it out: written, it made the
    file one no import takes ('unknown setting …')."""
    known: dict[str, Any] = {}
    for name, value in stored.items():
        if name in _BY_NAME:
            with contextlib.suppress(InvalidInput):
                known.update(validate_setting_patch({name: value}))
    return known


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
    merged = replace(defaults, **kept_overrides(stored))
    if not as_stored and merged.keyword_weight + merged.semantic_weight == 0:
        merged = replace(
            merged, keyword_weight=defaults.keyword_weight, semantic_weight=defaults.semantic_weight
        )
    return merged
