"""engine.json_text: what json.loads raises beyond JSONDecodeError is a message for the user."""

from __future__ import annotations

import pytest

from omoide.engine.json_text import MAX_DEPTH, JsonTextError, loads


@pytest.mark.parametrize(("text", "says"), [
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH}"),
    ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH}"),
    ("1" + "0" * 5000, "4,300 digits"),
    ('{"a": ', "line 1 column 7"),
])
def test_unreadable_json_is_a_json_text_error(text: str, says: str) -> None:
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    assert says in refused.value.message


def test_json_within_the_limits_reads_as_json_loads_does() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(deep) is not None
    assert loads('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}
