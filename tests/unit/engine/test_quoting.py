"""``engine.errors``' quoting of what a caller sent (``quoted``, ``short_json``, ``named``):
JSON's escapes for C0, and since session 45 the same for DEL, C1 and the bidirectional
controls, which JSON leaves raw; any other text is quoted as before."""

from __future__ import annotations

import pytest

from omoide.engine.errors import escape_controls, named, quoted, short_json


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
    assert quoted(value) == short_json(value) == as_quoted
    assert named(value) == as_named


def test_quoting_cuts_after_escaping_and_escapes_inside_values() -> None:
    assert quoted("\u202e" * 30, 20) == '"' + "\\u202e" * 3 + "\u2026"
    assert short_json({"k\u202e": ["\x85"]}) == '{"k\\u202e": ["\\u0085"]}'
    assert escape_controls("plain \\u202e text") == "plain \\u202e text"
