"""The dashboard's rendering of control characters (``dashboard/shown.py``): each one a
template writes is marked, in text and attributes alike; an editor's text stays as stored."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from omoide.api.http.dashboard.shown import as_stored, finalize, has_controls, marked
from omoide.api.http.dashboard.web import make_environment
from omoide.service.validate import TEXT_CONTROLS

_CONTROL = re.compile(f"[{TEXT_CONTROLS}]")


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
    ],
)
def test_marked_shows_each_control_character_as_its_code_point(stored: str, shown: str) -> None:
    assert marked(stored) == shown
    assert has_controls(stored) is (stored != shown)


@given(st.text())
def test_marked_text_holds_no_control_character(text: str) -> None:
    assert _CONTROL.search(marked(text)) is None
    assert marked(marked(text)) == marked(text)


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
