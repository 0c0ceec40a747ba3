"""``engine.errors``' quoting of what a caller sent (``quoted``, ``named``):
JSON's escapes for C0, and since session 45 the same for DEL, C1 and the bidirectional
controls, which JSON leaves raw; any other text is quoted as before."""

from __future__ import annotations

import pytest

from omoide.engine.errors import ECHO_CHARS, escape_controls, named, quoted


@pytest.mark.parametrize(
    ("value", "as_quoted", "as_named"),
    [
        pytest.param("1_0", '"1_0"', "'1_0'", id="ascii"),
        pytest.param("らうらう é…", '"らうらう é…"', "'らうらう é…'", id="unicode-kept"),
        pytest.param('a"b\n', '"a\\"b\\n"', "'a\"b\\n'", id="json-escapes"),
        pytest.param(
            "k\x7f\x85\x9f", '"k\\u007f\\u0085\\u009f"', "'k\\u007f\\u0085\\u009f'", id="del-c1"
        ),
        pytest.param(
            "\u202ax\u202e\u2066\u2069",
            '"\\u202ax\\u202e\\u2066\\u2069"',
            "'\\u202ax\\u202e\\u2066\\u2069'",
            id="bidi",
        ),
    ],
)
def test_quoting_escapes_controls_json_leaves_raw(
    value: str, as_quoted: str, as_named: str
) -> None:
    assert quoted(value) == as_quoted
    assert named(value) == as_named


def test_quoting_cuts_after_escaping_and_escapes_inside_values() -> None:
    assert ECHO_CHARS == 80
    assert quoted("\u202e" * 30) == '"' + "\\u202e" * 13 + "\u2026"  # 1 + 78 + 1 characters
    assert quoted({"k\u202e": ["\x85"]}) == '{"k\\u202e": ["\\u0085"]}'
    assert escape_controls("plain \\u202e text") == "plain \\u202e text"
