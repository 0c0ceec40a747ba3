"""pydantic's validation errors as the API's message and field path."""

from __future__ import annotations

import pytest

from omoide.api.http.validation_errors import PATTERN_RULES, field_path, validation_message
from omoide.service.validate import NAME_PATTERN, NON_BLANK_PATTERN


@pytest.mark.parametrize(("loc", "path"), [
    (("body", "events", 0, "content"), "events[0].content"),
    (("body", "events", 0, "external_id", "constrained-str"), "events[0].external_id"),
    (("body", "messages", 1, "content", "str"), "messages[1].content"),
    (("body", "messages", 1, "content", "list[function-after[x]]"), "messages[1].content"),
    (("query", "limit"), "limit"),
    (("header", "x-omoide-session"), "x-omoide-session"),
    (("body", "user_info", "my-key"), "user_info.my-key"),  # a key the client named stays
    ((), ""),
])
def test_field_path_names_what_the_client_sent(loc: tuple[object, ...], path: str) -> None:
    assert field_path(loc) == path


def test_a_pattern_is_told_as_its_rule() -> None:
    message, where = validation_message([{
        "loc": ("body", "block_name"), "type": "string_pattern_mismatch", "input": "a b",
        "msg": f"String should match pattern '{NAME_PATTERN}'",
        "ctx": {"pattern": NAME_PATTERN}}])
    assert where == "block_name"
    assert message == "block_name must be 1-64 ASCII letters, digits, '_' or '-', got 'a b'"
    assert NON_BLANK_PATTERN in PATTERN_RULES


def test_a_union_is_told_every_member_and_a_long_message_is_cut() -> None:
    message, where = validation_message([
        {"loc": ("body", "x", "constrained-str"), "type": "string_type",
         "msg": "Input should be a valid string"},
        {"loc": ("body", "x", "int"), "type": "int_type", "msg": "Input should be a valid integer"},
    ])
    assert (message, where) == (
        "x: Input should be a valid string; or Input should be a valid integer", "x")
    long, _ = validation_message([{"loc": ("body", "timezone"), "type": "literal_error",
                                   "msg": "Input should be " + ", ".join(["'Zone/X'"] * 600)}])
    assert len(long) <= 300 and long.endswith("…")
    assert validation_message([]) == ("request body: invalid value", "")
    assert validation_message([{"loc": ("body", "content"), "type": "missing"}]) == (
        "content is required", "content")


def test_a_value_of_another_type_or_out_of_bounds_is_told_with_the_value() -> None:
    """pydantic's "Input should be a valid integer" / "… less than or equal to 600" named
    neither the value nor, for a bound, in the API's words."""
    def said(error: dict[str, object]) -> str:
        return validation_message([{"loc": ("body", "x"), "msg": "pydantic's", **error}])[0]

    assert said({"type": "int_type", "input": 7.5}) == \
        "x must be an integer (a whole number, e.g. 5), got 7.5"
    assert said({"type": "int_type", "input": "7"}) == \
        'x must be an integer (a whole number, e.g. 5), got "7"'
    assert said({"type": "float_type", "input": "high"}) == \
        'x must be a number (e.g. 0.5), got "high"'
    assert said({"type": "bool_type", "input": "yes"}) == 'x must be true or false, got "yes"'
    assert said({"type": "string_type", "input": 5}) == "x must be a string, got 5"
    assert said({"type": "less_than_equal", "input": 1e9, "ctx": {"le": 600}}) == \
        "x must be at most 600, got 1000000000.0"
    assert said({"type": "greater_than_equal", "input": -1, "ctx": {"ge": 0}}) == \
        "x must be at least 0, got -1"
