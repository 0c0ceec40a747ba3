"""engine.json_text: the one strict reader of JSON a user hands over (a request body, an import
file or line, an MCP message): what it refuses is a JsonTextError with a message for the user."""

from __future__ import annotations

import re

import pytest

from omoide.engine.json_text import (
    MAX_DEPTH,
    MAX_SAFE_INT,
    JsonTextError,
    loads,
    loads_upstream,
    shape_refusal,
)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH}"),
        ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH}"),
        ("1" + "0" * 5000, f"outside ±{MAX_SAFE_INT}"),
        (str(MAX_SAFE_INT + 1), f"outside ±{MAX_SAFE_INT}"),
        ("-1e400", "finite"),
        ('{"x": NaN}', "NaN is not a number"),
        ('{"x": "\\ud800"}', "lone surrogate"),
        ('{"\\udc00": 1}', "lone surrogate"),
        ('{"a": ', "line 1, column 7"),
        (b'{"a": "\xff"}', "not UTF-8 (byte 7)"),
    ],
)
def test_unreadable_json_is_a_json_text_error(text: str | bytes, says: str) -> None:
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    assert says in refused.value.message


def test_a_key_named_twice_is_refused_with_the_key_as_field() -> None:
    with pytest.raises(JsonTextError) as refused:
        loads('[{"a": 1}, {"b": {"c": 1, "c": 2}}]')
    assert refused.value.field == "c" and "'c' twice" in refused.value.message
    assert loads('{"a": {"a": 1}}') == {"a": {"a": 1}}  # one key per object is fine


def test_shape_refusal_says_only_why_a_key_is_named_twice() -> None:
    assert shape_refusal(b'{"content": "tea", "content": "coffee"}') is not None
    assert shape_refusal('{"content": "tea"}') is None
    assert shape_refusal("not json") is None and shape_refusal('{"x": NaN}') is None


def test_shape_refusal_says_what_loads_says_of_a_lone_surrogate() -> None:
    """The MCP SDK's reader said "unexpected end of hex escape" of a complete escape."""
    for text in ('{"a": ["\\ud800"]}', '{"\\udfff": 1}'):
        with pytest.raises(JsonTextError) as refused:
            loads(text)
        assert shape_refusal(text) == shape_refusal(text.encode()) == refused.value.message
    assert shape_refusal('{"a": "\\ud83c\\udf75"}') is None  # a pair is one character


@pytest.mark.parametrize(
    "text",
    [
        '{"content": "tea", "content": "coffee"}',
        '[{"a": 1}, {"b": {"c": 1, "d": [{"e": 0}], "c": 2}}]',
        '{"params": {"arguments": {"events": [{"x": 1}, {"y": 1, "z": 2, "y": 3}]}}}',
    ],
)
def test_shape_refusal_says_what_loads_says(text: str) -> None:
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    assert shape_refusal(text) == shape_refusal(text.encode()) == refused.value.message
    assert (
        shape_refusal(
            text.replace('"c": 2', '"f": 2')
            .replace('"y": 3', '"w": 3')
            .replace('"content": "coffee"', '"kind": "coffee"')
        )
        is None
    )


def test_each_door_chooses_its_depth() -> None:
    assert loads("[" * 10 + "]" * 10, max_depth=10) is not None
    with pytest.raises(JsonTextError, match="deeper than 9 levels"):
        loads("[" * 10 + "]" * 10, max_depth=9)


def test_json_within_the_limits_reads_as_json_loads_does() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(deep) is not None
    assert loads('{"a": [1, 2.5, "x", null, true, "\\ud83d\\ude00"]}') == {
        "a": [1, 2.5, "x", None, True, "😀"]
    }
    assert loads(str(MAX_SAFE_INT)) == MAX_SAFE_INT and loads(str(-MAX_SAFE_INT)) == -MAX_SAFE_INT


@pytest.mark.parametrize("text", [b'\xef\xbb\xbf{"a": 1}', '\ufeff{"a": 1}'])
def test_one_leading_byte_order_mark_is_ignored(text: str | bytes) -> None:
    """RFC 8259 §8.1 lets a reader ignore it; Windows Notepad wrote one before UTF-8 files."""
    assert loads(text) == {"a": 1}


def test_a_byte_order_mark_elsewhere_is_still_not_json() -> None:
    with pytest.raises(JsonTextError):
        loads('{"a": 1}\ufeff')


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            '{"a": "tea',
            "not valid JSON: a string opens here and is never closed (line 1, column 7)",
        ),
        (
            '{"a": "t\tea"}',
            "not valid JSON: a control character (a tab or line break) inside a "
            "string; write it escaped (\\t, \\n) (line 1, column 9)",
        ),
        (
            '{"a": 1,}',
            "not valid JSON: a comma before '}': JSON allows none after the last item "
            "(line 1, column 9)",
        ),
    ],
)
def test_a_json_error_names_its_place_once(text: str, says: str) -> None:
    """Session 25's probe: Python's messages that end in "at" were followed by " at line …"
    ("Unterminated string starting at at line 1 column 7")."""
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    assert refused.value.message.startswith(says), refused.value.message
    assert " at at " not in refused.value.message


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "the text is empty (line 1, column 1)"),
        ('{"a":', "the text ends before the JSON value is complete (line 1, column 6)"),
        ("[1, 2", "the text ends before the JSON value is complete (line 1, column 6)"),
        ('{"a": 1}{"b": 2}', "more text follows the end of the JSON value (line 1, column 9)"),
        ('{"a": 1}\n{"b": 2}', "more text follows the end of the JSON value (line 2, column 1)"),
        ("[1, ]", "a comma before ']': JSON allows none after the last item (line 1, column 5)"),
        ("{'a': 1}", "a key in single quotes; JSON writes keys and strings in double quotes"),
        ("{a: 1}", "expected a key in double quotes (line 1, column 2)"),
        ('{"a" 1}', "expected ':' after the key (line 1, column 6)"),
        ("[1 2]", "expected ',' or the closing bracket after an item (line 1, column 4)"),
        (
            "tru",
            "expected a value (a string in double quotes, a number, an object, an array, "
            "true, false or null) (line 1, column 1)",
        ),
        ('"\\x"', "a backslash escape JSON does not have"),
        ('"\\u12"', "a \\u escape without four hex digits (line 1, column 3)"),
    ],
)
def test_a_json_error_is_said_in_the_readers_words(text: str, says: str) -> None:
    """Session 30: the refusal was Python's ("Expecting value at line 1 column 6", "Extra
    data"); it says what is wrong in plain words, with the line and column."""
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    message = refused.value.message
    assert message.startswith("not valid JSON: " + says), message
    assert not re.search("Expecting|Extra data|Unterminated|Invalid", message), message


def test_loads_upstream_replaces_each_lone_surrogate_and_keeps_pairs() -> None:
    """An upstream's JSON (session 36): lone halves anywhere, keys too, become U+FFFD; a pair
    (read by json.loads as one character) and other values stay."""
    text = '{"a\\ud800": ["x\\udc00y", {"k": "\\ud83d\\ude00\\ud83d"}], "n": [1, null]}'
    assert loads_upstream(text) == {
        "a\ufffd": ["x\ufffdy", {"k": "\U0001f600\ufffd"}],
        "n": [1, None],
    }
    assert loads_upstream('"\\udfff"') == "\ufffd"
    assert loads_upstream(b'{"a": "\\ud800"}') == {"a": "\ufffd"}


def test_loads_upstream_refuses_nesting_deeper_than_its_limit() -> None:
    """A depth the parser just reached overflowed the encoder relaying it (session 36)."""
    assert loads_upstream("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(JsonTextError, match=f"deeper than {MAX_DEPTH}"):
        loads_upstream('{"x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}")


@pytest.mark.parametrize("text", ['{"a": NaN}', "[Infinity]", '{"a": -Infinity}', "[1e999]"])
def test_loads_upstream_refuses_numbers_json_has_not(text: str) -> None:
    """Not JSON; relayed, the reply could not be written (a 500) (session 36)."""
    with pytest.raises(JsonTextError):
        loads_upstream(text)


def test_loads_upstream_keeps_nul_unless_the_text_is_stored() -> None:
    """Relayed, a NUL is valid JSON text; kept (a model's note), it is U+FFFD (session 36)."""
    assert loads_upstream('["a\\u0000b"]') == ["a\x00b"]
    assert loads_upstream('{"k\\u0000": "a\\u0000\\ud800"}', keep=True) == {
        "k\ufffd": "a\ufffd\ufffd"
    }
