"""The dashboard's rendering of control characters (``dashboard/shown.py``): each one a
template writes is marked, in text and attributes alike; an editor's text stays as stored."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from omoide.api.http.dashboard.shown import (
    INVISIBLE,
    JOINERS,
    as_stored,
    finalize,
    has_controls,
    marked,
)
from omoide.api.http.dashboard.web import make_environment
from omoide.service.validate import TEXT_CONTROLS

_CONTROL = re.compile(f"[{TEXT_CONTROLS}]")
_FLAG_TAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        pytest.param("PIN \u202e1234\u202c", "PIN ⟨U+202E⟩1234⟨U+202C⟩", id="override"),
        pytest.param(
            "\u2066a\u2069 \u2067b\u2068", "⟨U+2066⟩a⟨U+2069⟩ ⟨U+2067⟩b⟨U+2068⟩", id="isolates"
        ),
        pytest.param("\x1b[2Jgone", "⟨U+001B⟩[2Jgone", id="esc"),
        pytest.param(
            "a\x00b\x7fc\x85d\x9f", "a⟨U+0000⟩b⟨U+007F⟩c⟨U+0085⟩d⟨U+009F⟩", id="c0-del-c1"
        ),
        pytest.param("line\tone\nline two\r\n", "line\tone\nline two\r\n", id="lines-kept"),
        pytest.param(
            "ユーザーは京都に住んでいる。 שלום", "ユーザーは京都に住んでいる。 שלום", id="plain"
        ),
        pytest.param(
            "pay\u200bpal \u00adx\u2060y\u2064 \u200e\u200f\u061c \ufeffz\ufeff",
            "pay⟨U+200B⟩pal ⟨U+00AD⟩x⟨U+2060⟩y⟨U+2064⟩ ⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩ ⟨U+FEFF⟩z⟨U+FEFF⟩",
            id="invisible-format",
        ),
        pytest.param("a\U000e0041\U000e007f", "a⟨U+E0041⟩⟨U+E007F⟩", id="tags"),
        pytest.param(
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
            id="flag-tag-sequence-kept",
        ),
        pytest.param(
            "👩\u200d💻 می\u200cخواهم क्\u200dष",
            "👩\u200d💻 می\u200cخواهم क्\u200dष",
            id="joiners-kept",
        ),
        pytest.param(
            "pay\u200dpal \u200cx \u202e\u200d",
            "pay⟨U+200D⟩pal ⟨U+200C⟩x ⟨U+202E⟩⟨U+200D⟩",
            id="joiners-hiding-marked",
        ),
        pytest.param(
            "\u0600\u0661 \u180e \U0001d173",
            "\u0600\u0661 \u180e \U0001d173",
            id="script-format-kept",
        ),
    ],
)
def test_marked_shows_each_control_character_as_its_code_point(stored: str, shown: str) -> None:
    assert marked(stored) == shown
    assert has_controls(stored) is (stored != shown)


@given(st.text())
def test_marked_text_holds_no_control_character(text: str) -> None:
    assert _CONTROL.search(marked(text)) is None
    assert marked(marked(text)) == marked(text)


_FORMAT_TEXT = st.text(
    st.sampled_from(["a", "ß", "क", "👩", "\U0001f3f4", "\U000e0067", "\U000e007f"])
    | st.sampled_from([c for c in map(chr, range(0x110000)) if unicodedata.category(c) == "Cf"])
)


@given(_FORMAT_TEXT | st.text())
def test_marked_text_shows_no_invisible_format_character_but_joiners_in_a_script(
    text: str,
) -> None:
    """Each Cf character left in the page is a joiner after an unmarked character beyond
    Latin, a tag of a flag's tag sequence, or one of the script's own (module docstring)."""
    shown = marked(text)
    left = "".join(_FLAG_TAGS.sub("", shown))
    for at, char in enumerate(left):
        if re.fullmatch(f"[{INVISIBLE}]", char) is None:
            continue
        assert char in JOINERS and at > 0 and ord(left[at - 1]) >= 0x370, (text, shown)
        assert "⟩" in text or left[at - 1] != "⟩", (text, shown)  # not after a marked one
    assert marked(shown) == shown
    assert has_controls(text) is (shown != text)


def test_finalize_marks_strings_and_leaves_markup_and_other_values() -> None:
    assert finalize("\u202e") == "⟨U+202E⟩"
    assert finalize(Markup("<b>\u202e</b>")) == Markup("<b>\u202e</b>")
    assert finalize(3) == 3
    assert finalize(None) is None


def test_templates_mark_text_and_attributes_and_keep_the_editor_as_stored() -> None:
    template = make_environment().from_string(
        '<p title="{{ t }}">{{ t }}</p><textarea>{{ t|as_stored }}</textarea>'
        "{% if t is with_controls %}!{% endif %}{{ t|truncate(6, end='') }}"
    )
    assert template.render(t="<\u202eab>") == (
        '<p title="&lt;⟨U+202E⟩ab&gt;">&lt;⟨U+202E⟩ab&gt;</p>'
        "<textarea>&lt;\u202eab&gt;</textarea>!&lt;⟨U+202E⟩ab&gt;"
    )
    assert as_stored("<\x1b>") == Markup("&lt;\x1b&gt;")
