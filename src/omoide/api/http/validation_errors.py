"""A request validation error (pydantic's) as the one error body: a field path a client can
read (``events[0].external_id``) and a message that states the rule, not the regular
expression that checks it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from omoide.engine.errors import quoted
from omoide.service.chat import ROLES
from omoide.service.state import INTENSITY_PATTERN, STATE_VALUE_PATTERN
from omoide.service.validate import (
    EMOTION_PATTERN,
    EXTERNAL_ID_PATTERN,
    NAME_PATTERN,
    NON_BLANK_PATTERN,
    SESSION_ID_PATTERN,
    STATE_KEY_PATTERN,
    TAG_PATTERN,
    TAGS_QUERY_PATTERN,
    TIMESTAMP_PATTERN,
)
from omoide.service.validate.names import STATE_KEY_RULE

__all__ = ["bound_rule", "field_path", "json_type", "short_json", "validation_message"]

# What each pattern of service/validate/patterns.py means, said to the client instead of the
# pattern.
PATTERN_RULES = {
    NON_BLANK_PATTERN: "must not be empty or whitespace, nor only invisible characters",
    NAME_PATTERN: "must be 1-64 ASCII letters, digits, '_' or '-'",
    STATE_KEY_PATTERN: STATE_KEY_RULE.replace("use ", "must be ", 1),
    SESSION_ID_PATTERN: "must be 1-128 ASCII letters, digits or _ . : @ - (no '/' or spaces)",
    EXTERNAL_ID_PATTERN: "must be 1-200 characters without control characters",
    TAG_PATTERN: "must be 1-64 characters once trimmed, without a comma or a control character",
    EMOTION_PATTERN: "must not be blank nor hold a control character (tab and newline "
                     "included)",
    TAGS_QUERY_PATTERN: "must be at most 20 comma-separated tags of 1-64 characters each",
    TIMESTAMP_PATTERN: "must be an ISO-8601 date or timestamp, e.g. 2026-03-01 or "
                       "2026-03-01T09:30:00+09:00",
    STATE_VALUE_PATTERN: "must be text of 1-2,000 characters once trimmed, without control "
                         "characters but tab and line breaks",
    INTENSITY_PATTERN: "must be a number between 0 and 1 (as text: at most 6 decimals, "
                       "e.g. \"0.75\")",
}
_ROOTS = ("query", "body", "path", "header", "cookie")
# pydantic names the member of a union that failed in the error's location
# ("external_id.constrained-str", "content.str"): not a field the client sent.
_UNION_TAG = re.compile(r"(?:str|int|float|bool|constrained-[a-z]+|[a-z]+(?:-[a-z]+)*\[.*\])")
_MAX_MESSAGE = 300  # a Literal of 600 time zones is not a message


def field_path(loc: Any) -> str:
    """``("body", "events", 0, "content")`` → ``events[0].content``."""
    path = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            path += f"[{part}]"
        elif not _skipped(i, part) and not _message_role(loc, i):
            path += f".{part}" if path else str(part)
    return path


def _message_role(loc: Any, i: int) -> bool:
    """The role pydantic names after a chat message's index (``body.messages.0.user.name``):
    the member of the union discriminated by ``role`` it read the message as."""
    return i == 3 and tuple(loc[:2]) == ("body", "messages") and loc[i] in ROLES


def _skipped(i: int, part: Any) -> bool:
    """Where the value was (``body``, ``query`` …), or the union member it was tried as."""
    return (i == 0 and part in _ROOTS) or (
        i > 1 and isinstance(part, str) and _UNION_TAG.fullmatch(part) is not None)


_NOT_AN_OBJECT = {"model_attributes_type", "dict_type", "model_type"}
# a JSON value of another type than the field's (the body models are strict: "7" is no integer,
# 7.5 neither, 7.0 is 7)
_SCALAR_TYPES = {"int_type": "an integer (a whole number, e.g. 5)",
                 "int_from_float": "an integer (a whole number, e.g. 5)",
                 "float_type": "a number (e.g. 0.5)", "bool_type": "true or false",
                 "string_type": "a string"}
_BOUNDS = {"less_than_equal": ("at most", "le"), "greater_than_equal": ("at least", "ge"),
           "less_than": ("less than", "lt"), "greater_than": ("more than", "gt")}


def bound_rule(error: Any) -> str | None:
    """A bound pydantic checked, in the API's words ("must be at least 1"; pydantic: "Input
    should be greater than or equal to 1"), or None for another kind of error. HTTP and the
    MCP tools' arguments say bounds this one way."""
    bound = _BOUNDS.get(str(error.get("type")))
    if bound is None:
        return None
    words, name = bound
    return f"must be {words} {(error.get('ctx') or {}).get(name)}"


def json_type(value: Any) -> str:
    """What a JSON value is, in JSON's words (``[1]`` is an array, not a list)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def short_json(value: Any, limit: int = 60) -> str:
    """A value as a refusal echoes it: its JSON, cut to ``limit`` characters ("…")."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def validation_message(errors: list[Any]) -> tuple[str, str]:
    """(message, field path) of pydantic's first error; a value that fits no member of a union
    (text or an integer …) is told every member's complaint."""
    error = errors[0] if errors else {}
    where = field_path(error.get("loc", ()))
    members = [e for e in errors if len(e.get("loc", ())) == len(error.get("loc", ()))
               and e.get("type") != "string_pattern_mismatch"
               and field_path(e.get("loc", ())) == where]
    union = len(members) > 1 and len(error.get("loc", ())) > 2 and _UNION_TAG.fullmatch(
        str(error["loc"][-1])) is not None
    if union:
        error = {**error, "msg": "; or ".join(dict.fromkeys(e.get("msg", "") for e in members))}
    subject = where or "request body"
    kind = error.get("type")
    if not where and kind in _NOT_AN_OBJECT:  # pydantic: "a valid dictionary or object to
        return (f"the request body must be a JSON object ({{…}}), got "  # extract fields from"
                f"{json_type(error.get('input'))}"), where
    if kind in _NOT_AN_OBJECT or kind == "list_type":  # in JSON's words, as MCP says it
        wanted = "an array ([…])" if kind == "list_type" else "an object ({…})"
        return f"{subject} must be {wanted}, got {json_type(error.get('input'))}", where
    if kind == "missing":
        return f"{subject} is required", where
    if kind in _SCALAR_TYPES and not union:  # pydantic: "Input should be a valid integer"
        return f"{subject} must be {_SCALAR_TYPES[kind]}, got {short_json(error.get('input'))}", \
            where
    rule = bound_rule(error)
    if rule is not None and not union:  # pydantic: "Input should be less than or equal to 600"
        return f"{subject} {rule}, got {error.get('input')}", where
    if kind == "string_pattern_mismatch":
        rule = PATTERN_RULES.get(str((error.get("ctx") or {}).get("pattern")))
        if rule is not None:
            return f"{subject} {rule}, got {quoted(error.get('input'))}", where
    said = str(error.get("msg", "invalid value"))
    if kind == "value_error":  # a validator's own words, without pydantic's "Value error, "
        said = said.removeprefix("Value error, ")
    message = f"{subject}: {said}"
    if len(message) > _MAX_MESSAGE:
        message = message[:_MAX_MESSAGE - 1] + "…"
    return message, where


