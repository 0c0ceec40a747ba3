"""A request validation error (pydantic's) as the one error body: a field path a client can
read (``events[0].external_id``) and a message that states the rule, not the regular
expression that checks it.
"""

from __future__ import annotations

import re
from typing import Any

from omoide.engine.counts import plural
from omoide.engine.errors import (
    count_rule,
    json_type,
    length_rule,
    length_said,
    quoted,
    spelled,
)
from omoide.service.chat_messages import ROLES
from omoide.service.state import INTENSITY_PATTERN, STATE_VALUE_PATTERN
from omoide.service.validate import (
    EMOTION_PATTERN,
    EXTERNAL_ID_PATTERN,
    EXTERNAL_ID_RULE,
    MAX_TAG_CHARS,
    MAX_TAGS,
    NAME_PATTERN,
    NAME_RULE,
    NON_BLANK_PATTERN,
    NON_BLANK_RULE,
    SESSION_ID_PATTERN,
    STATE_KEY_PATTERN,
    TAG_PATTERN,
    TAGS_QUERY_PATTERN,
    TIMESTAMP_PATTERN,
    is_blank,
)
from omoide.service.validate.memory_fields import NO_EMOTION_HINT
from omoide.service.validate.names import STATE_KEY_RULE

__all__ = ["TYPE_WORDS", "field_path", "json_path", "validation_message", "value_rule"]

# What each pattern of service/validate/patterns.py means, said to the client instead of the
# pattern.
PATTERN_RULES = {
    NON_BLANK_PATTERN: NON_BLANK_RULE,
    NAME_PATTERN: f"must be {NAME_RULE}",
    STATE_KEY_PATTERN: STATE_KEY_RULE.replace("use ", "must be ", 1),
    SESSION_ID_PATTERN: "must be 1-128 ASCII letters, digits or _ . : @ - (no '/' or spaces)",
    EXTERNAL_ID_PATTERN: f"must be {EXTERNAL_ID_RULE}",
    TAG_PATTERN: f"must be 1-{MAX_TAG_CHARS} characters once trimmed, without a comma or a "
    "control character",
    EMOTION_PATTERN: "must not hold a control character (tab and newline included)",
    TAGS_QUERY_PATTERN: f"must be 1-{MAX_TAGS} comma-separated tags of 1-{MAX_TAG_CHARS} "
    "characters each (leave "
    "tags out for no tag filter)",
    TIMESTAMP_PATTERN: "must be an ISO-8601 date or timestamp, e.g. 2026-03-01 or "
    "2026-03-01T09:30:00+09:00",
    STATE_VALUE_PATTERN: "must be a string of 1-2,000 characters once trimmed, without control "
    "characters but tab and line breaks",
    INTENSITY_PATTERN: "must be a number between 0 and 1 (as text: at most 6 decimals, "
    'e.g. "0.75")',
}
# The patterns that also refuse a blank text, and what a refusal of one says after the value
# sent: a blank value is told in the one wording of a blank text (NON_BLANK_RULE, as content
# and q are), not in the pattern's words ("must not be blank nor hold a control character").
_BLANK_HINTS = {EMOTION_PATTERN: f"; {NO_EMOTION_HINT}", TAG_PATTERN: ""}
_ROOTS = ("query", "body", "path", "header", "cookie")
# pydantic names the member of a union that failed in the error's location
# ("external_id.constrained-str", "content.str"): not a field the client sent.
_UNION_TAG = re.compile(r"(?:str|int|float|bool|constrained-[a-z]+|[a-z]+(?:-[a-z]+)*\[.*\])")
_MAX_MESSAGE = 300  # a Literal of 600 time zones is not a message
_MAX_SUBJECT = 80


def field_path(loc: Any) -> str:
    """``("body", "events", 0, "content")`` → ``events[0].content``."""
    return json_path(
        [
            part
            for i, part in enumerate(loc)
            if isinstance(part, int) or not (_skipped(i, part) or _message_role(loc, i))
        ]
    )


def json_path(parts: Any) -> str:
    """``("turns", 0, "role")`` → ``turns[0].role``: a place in a JSON value as a refusal names
    it (HTTP's fields, MCP's arguments and params)."""
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


def _message_role(loc: Any, i: int) -> bool:
    """The role pydantic names after a chat message's index (``body.messages.0.user.name``):
    the member of the union discriminated by ``role`` it read the message as."""
    return i == 3 and tuple(loc[:2]) == ("body", "messages") and loc[i] in ROLES


def _skipped(i: int, part: Any) -> bool:
    """Where the value was (``body``, ``query`` …), or the union member it was tried as."""
    return (i == 0 and part in _ROOTS) or (
        i > 1 and isinstance(part, str) and _UNION_TAG.fullmatch(part) is not None
    )


_NOT_AN_OBJECT = {"model_attributes_type", "dict_type", "model_type"}
# a JSON value of another type than the field's (the body models are strict: "7" is no integer,
# 7.5 neither, 7.0 is 7; MCP's arguments are read laxly, so "x" may fail as a string to parse)
TYPE_WORDS = {
    "integer": "an integer (a whole number, e.g. 5)",
    "number": "a number (e.g. 0.5)",
    "boolean": "true or false",
    "string": "a string",
    "array": "an array ([…])",
    "object": "an object ({…})",
    "null": "null",
}
"""A JSON Schema type as a refusal names it ("must be an integer (a whole number, e.g. 5)")."""
_TYPES = {
    "int_type": "integer",
    "int_from_float": "integer",
    "int_parsing": "integer",
    "int_parsing_size": "integer",  # 1e308 for an integer: "Unable to parse input …"
    "float_type": "number",
    "float_parsing": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "string_type": "string",
    "list_type": "array",
    **dict.fromkeys(_NOT_AN_OBJECT, "object"),
}
_BOUNDS = {
    "less_than_equal": ("at most", "le"),
    "greater_than_equal": ("at least", "ge"),
    "less_than": ("less than", "lt"),
    "greater_than": ("more than", "gt"),
}
_CONTAINERS = {"list_type", *_NOT_AN_OBJECT}
_CHOICES = 200  # the choices of a Literal of 600 time zones are cut here ("…")


def _bound(limit: Any) -> Any:
    """A bound as the docs write it: a float field's whole bound without its ".0" (pydantic
    hands ``le=600`` of a float as 600.0: "at most 600", not "at most 600.0")."""
    return int(limit) if isinstance(limit, float) and limit.is_integer() else limit


def value_rule(error: Any) -> tuple[str, str | None] | None:
    """What a value must be, in the API's words, and what was sent as the refusal echoes it
    (None: nothing to echo), for each kind of pydantic error a client can cause; None for a
    validator's own words (``value_error``) and kinds not listed here. pydantic says "Input
    should be greater than or equal to 1", "Input should be 'a' or 'b'", "String should have at
    most 64 characters", "Extra inputs are not permitted"; HTTP bodies and queries and the MCP
    tools' arguments and params say "must be at least 1" … this one way."""
    kind = str(error.get("type"))
    ctx = error.get("ctx") or {}
    value = error.get("input")
    echo = quoted(value)
    if kind in _BOUNDS:  # a query's number is read from its text: told as sent, unquoted
        words, name = _BOUNDS[kind]
        return f"must be {words} {_bound(ctx.get(name))}", value if isinstance(value, str) else echo
    if kind in _TYPES:
        return (
            f"must be {TYPE_WORDS[_TYPES[kind]]}",
            json_type(value) if kind in _CONTAINERS else echo,
        )
    if kind in ("literal_error", "enum"):
        choices = str(ctx.get("expected", ""))
        if len(choices) > _CHOICES:
            choices = choices[: _CHOICES - 1] + "…"
        return f"must be one of {choices}", echo
    if kind == "string_too_short":
        least = ctx.get("min_length")
        return ("must not be empty" if least == 1 else f"must be at least {least} characters", echo)
    if kind == "string_too_long":
        return (
            length_rule(int(ctx.get("max_length", 0))),
            length_said(value) if isinstance(value, str) else echo,
        )
    if kind in ("too_short", "too_long"):
        count = int(ctx.get("min_length" if kind == "too_short" else "max_length", 0))
        what = plural(count, "item" if ctx.get("field_type") != "Dictionary" else "key")
        got = ctx.get("actual_length")
        rule = f"must have at least {count:,} {what}" if kind == "too_short" else None
        return (
            rule or count_rule(count, what),
            None if got is None else f"{got:,}",
        )
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern"))
        if pattern in _BLANK_HINTS and isinstance(value, str) and is_blank(value):
            return NON_BLANK_RULE, quoted(value) + _BLANK_HINTS[pattern]
        rule = PATTERN_RULES.get(pattern)
        return None if rule is None else (rule, echo)
    if kind == "finite_number":  # NaN or Infinity where a number is read
        return "must be a finite number", echo
    if kind == "missing":
        return "is required", None
    if kind == "extra_forbidden":
        return "is not a field this takes (unknown fields are refused, not ignored)", None
    return None


def _union_message(subject: str, members: list[Any]) -> str:
    """A value that fits no member of a union: ``external_id must be a string or an integer
    (…), got 1.5``; pydantic's words joined when some member's complaint has no rule."""
    told = [value_rule(e) for e in members]
    if all(t is not None and t[0].startswith("must be ") for t in told):
        rules = " or ".join(dict.fromkeys(t[0].removeprefix("must be ") for t in told if t))
        return f"{subject} must be {rules}, got {quoted(members[0].get('input'))}"
    message = f"{subject}: " + "; or ".join(dict.fromkeys(e.get("msg", "") for e in members))
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"


def validation_message(errors: list[Any]) -> tuple[str, str]:
    """(message, field path) of pydantic's first error; a value that fits no member of a union
    (text or an integer …) is told every member's complaint."""
    error = errors[0] if errors else {}
    where = field_path(error.get("loc", ()))
    members = [
        e
        for e in errors
        if len(e.get("loc", ())) == len(error.get("loc", ()))
        and e.get("type") != "string_pattern_mismatch"
        and field_path(e.get("loc", ())) == where
    ]
    union = (
        len(members) > 1
        and len(error.get("loc", ())) > 2
        and _UNION_TAG.fullmatch(str(error["loc"][-1])) is not None
    )
    # a field named by the client (an unknown one, 5,000 characters long) is cut in the message
    # and its control characters escaped as a name's are (a key of ``metadata`` is the client's)
    subject = spelled(where, _MAX_SUBJECT) if where else "request body"
    if union:
        return _union_message(subject, members), where
    kind = error.get("type")
    if not where and kind in _NOT_AN_OBJECT:  # pydantic: "a valid dictionary or object to
        return (
            f"the request body must be a JSON object ({{…}}), got "  # extract fields from"
            f"{json_type(error.get('input'))}"
        ), where
    told = value_rule(error)
    if told is not None:
        rule, got = told
        return f"{subject} {rule}" + ("" if got is None else f", got {got}"), where
    said = str(error.get("msg", "invalid value"))
    if kind == "value_error":  # a validator's own words, without pydantic's "Value error, "
        said = said.removeprefix("Value error, ")
    message = f"{subject}: {said}"
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    return message, where
