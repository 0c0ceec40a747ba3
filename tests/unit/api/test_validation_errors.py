"""pydantic's validation errors as the API's message and field path."""

from __future__ import annotations

import pytest

from omoide.api.http.validation_errors import PATTERN_RULES, field_path, validation_message
from omoide.service.validate import NAME_PATTERN, NON_BLANK_PATTERN


@pytest.mark.parametrize(
    ("loc", "path"),
    [
        (("body", "events", 0, "content"), "events[0].content"),
        (("body", "events", 0, "external_id", "constrained-str"), "events[0].external_id"),
        (("body", "messages", 1, "content", "str"), "messages[1].content"),
        (("body", "messages", 1, "content", "list[function-after[x]]"), "messages[1].content"),
        (("query", "limit"), "limit"),
        (("header", "x-omoide-session"), "x-omoide-session"),
        (("body", "user_info", "my-key"), "user_info.my-key"),  # a key the client named stays
        ((), ""),
    ],
)
def test_field_path_names_what_the_client_sent(loc: tuple[object, ...], path: str) -> None:
    assert field_path(loc) == path


def test_a_pattern_is_told_as_its_rule() -> None:
    message, where = validation_message(
        [
            {
                "loc": ("body", "block_name"),
                "type": "string_pattern_mismatch",
                "input": "a b",
                "msg": f"String should match pattern '{NAME_PATTERN}'",
                "ctx": {"pattern": NAME_PATTERN},
            }
        ]
    )
    assert where == "block_name"
    assert message == "block_name must be 1-64 ASCII letters, digits, '_' or '-', got \"a b\""
    assert NON_BLANK_PATTERN in PATTERN_RULES


def test_a_union_is_told_every_member_and_a_long_message_is_cut() -> None:
    message, where = validation_message(
        [
            {
                "loc": ("body", "x", "constrained-str"),
                "type": "string_type",
                "input": 1.5,
                "msg": "Input should be a valid string",
            },
            {
                "loc": ("body", "x", "int"),
                "type": "int_type",
                "input": 1.5,
                "msg": "Input should be a valid integer",
            },
        ]
    )
    assert (message, where) == (
        "x must be a string or an integer (a whole number, e.g. 5), got 1.5",
        "x",
    )
    message, _ = validation_message(
        [
            {"loc": ("body", "x", "str"), "type": "string_type", "msg": "Input should be a string"},
            {"loc": ("body", "x", "int"), "type": "custom", "msg": "a validator's words"},
        ]
    )
    assert message == "x: Input should be a string; or a validator's words"
    long, _ = validation_message(
        [
            {
                "loc": ("body", "timezone"),
                "type": "literal_error",
                "input": "Mars/Base",
                "ctx": {"expected": ", ".join(["'Zone/X'"] * 600)},
                "msg": "Input should be …",
            }
        ]
    )
    assert len(long) <= 300 and "…" in long
    assert validation_message([]) == ("request body: invalid value", "")
    assert validation_message([{"loc": ("body", "content"), "type": "missing"}]) == (
        "content is required",
        "content",
    )


def test_a_value_of_another_type_or_out_of_bounds_is_told_with_the_value() -> None:
    """pydantic's "Input should be a valid integer" / "… less than or equal to 600" named
    neither the value nor, for a bound, in the API's words."""

    def said(error: dict[str, object]) -> str:
        return validation_message([{"loc": ("body", "x"), "msg": "pydantic's", **error}])[0]

    assert (
        said({"type": "int_type", "input": 7.5})
        == "x must be an integer (a whole number, e.g. 5), got 7.5"
    )
    assert (
        said({"type": "int_type", "input": "7"})
        == 'x must be an integer (a whole number, e.g. 5), got "7"'
    )
    assert (
        said({"type": "float_type", "input": "high"}) == 'x must be a number (e.g. 0.5), got "high"'
    )
    assert said({"type": "bool_type", "input": "yes"}) == 'x must be true or false, got "yes"'
    assert said({"type": "string_type", "input": 5}) == "x must be a string, got 5"
    assert (
        said({"type": "less_than_equal", "input": 1e9, "ctx": {"le": 600}})
        == "x must be at most 600, got 1000000000.0"
    )
    assert (
        said({"type": "greater_than_equal", "input": -1, "ctx": {"ge": 0}})
        == "x must be at least 0, got -1"
    )


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (
            {
                "type": "literal_error",
                "input": "fuzzy",
                "ctx": {"expected": "'hybrid' or 'keyword'"},
            },
            "x must be one of 'hybrid' or 'keyword', got \"fuzzy\"",
        ),
        (
            {"type": "enum", "input": "bogus", "ctx": {"expected": "'note' or 'fact'"}},
            "x must be one of 'note' or 'fact', got \"bogus\"",
        ),
        (
            {"type": "string_too_short", "input": "", "ctx": {"min_length": 1}},
            'x must not be empty, got ""',
        ),
        (
            {"type": "string_too_short", "input": "a", "ctx": {"min_length": 2}},
            'x must be at least 2 characters, got "a"',
        ),
        (
            {"type": "string_too_long", "input": "a" * 300, "ctx": {"max_length": 64}},
            "x must be at most 64 characters, got 300",
        ),
        (
            {
                "type": "too_short",
                "input": [],
                "ctx": {"field_type": "List", "min_length": 1, "actual_length": 0},
            },
            "x must have at least 1 item, got 0",
        ),
        (
            {
                "type": "too_long",
                "input": list(range(40)),
                "ctx": {"field_type": "List", "max_length": 20, "actual_length": 40},
            },
            "x must have at most 20 items, got 40",
        ),
        (
            {
                "type": "too_long",
                "input": {},
                "ctx": {"field_type": "Dictionary", "max_length": 2, "actual_length": 3},
            },
            "x must have at most 2 keys, got 3",
        ),
        (
            {"type": "int_parsing", "input": "five"},
            'x must be an integer (a whole number, e.g. 5), got "five"',
        ),
        ({"type": "float_parsing", "input": "high"}, 'x must be a number (e.g. 0.5), got "high"'),
        ({"type": "bool_parsing", "input": "maybe"}, 'x must be true or false, got "maybe"'),
        ({"type": "list_type", "input": "a"}, "x must be an array ([…]), got a string"),
        ({"type": "dict_type", "input": [1]}, "x must be an object ({…}), got an array"),
        (
            {"type": "finite_number", "input": float("inf")},
            "x must be a finite number, got Infinity",
        ),
        (
            {"type": "extra_forbidden", "input": 1},
            "x is not a field this takes (unknown fields are refused, not ignored)",
        ),
    ],
)
def test_each_kind_a_client_can_cause_is_told_in_the_apis_words(
    error: dict[str, object], said: str
) -> None:
    """pydantic's "Input should be 'a' or 'b'", "String should have at most 64 characters",
    "List should have at most 20 items after validation", "Extra inputs are not permitted"
    … in the words HTTP and MCP share (``value_rule``)."""
    message, where = validation_message([{"loc": ("body", "x"), "msg": "pydantic's", **error}])
    assert (message, where) == (said, "x")
    assert "should" not in message and "Input" not in message
