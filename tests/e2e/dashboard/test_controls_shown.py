"""Stored text holding control characters, seen in a real browser: each one is marked
(``⟨U+202E⟩``) on the page, never written raw, while the stored text and the editors keep it.

Before (sessions 40-42), a memory, a turn or a block was written into the page as stored: a
U+202E (right-to-left override) showed what followed it reversed ("4321" for "1234"), and ESC
or an isolate was there unseen, so what a memory says could be disguised on the one page a
person reads it on."""

from __future__ import annotations

from dashboard_browser import Site, Tab

# a right-to-left override and its pop, ESC of a terminal colour, an isolate pair, a C1 NEL
STORED = "PIN \u202e1234\u202c, \x1b[31mred\x1b[0m, \u2066isolated\u2069, \x85end"
SHOWN = (
    "PIN ⟨U+202E⟩1234⟨U+202C⟩, ⟨U+001B⟩[31mred⟨U+001B⟩[0m, ⟨U+2066⟩isolated⟨U+2069⟩, ⟨U+0085⟩end"
)


def _raw(text: str) -> list[str]:
    return [c for c in text if c in "\u202e\u202c\x1b\u2066\u2069\x85"]


def test_control_characters_in_stored_text_are_shown_marked(tab: Tab, site: Site) -> None:
    app = site.omoide
    created = app.memories.create("rin", app.memories.build_new(content=STORED))
    assert created.memory is not None
    key = created.memory.key
    app.blocks.write_block("rin", block_name="notes", content=STORED, priority=1)
    app.sessions.open("rin", session_id="ses-controls")
    app.sessions.record("rin", "ses-controls", [{"speaker": "Haruka", "content": STORED}])
    tab.sign_in(site.admin_key)

    tab.goto(f"/p/rin/memories/{key}")
    assert tab.page.locator("#content").inner_text() == SHOWN
    assert tab.page.locator("textarea[name=content]").input_value() == STORED  # as stored
    assert "control or invisible characters" in tab.page.locator(".controls-note").inner_text()
    assert _raw(tab.page.locator("body").inner_text()) == []
    tab.goto("/p/rin/blocks")
    assert tab.page.locator("#block-notes td.content").inner_text() == SHOWN
    tab.goto("/p/rin/blocks?edit=notes")
    assert tab.page.locator("textarea[name=content]").input_value() == STORED
    tab.goto("/p/rin/sessions/ses-controls")
    assert tab.page.locator("#turn-1 .text").inner_text() == SHOWN
    for path in ("/p/rin/memories", "/p/rin/blocks", "/p/rin/sessions/ses-controls"):
        tab.goto(path)
        assert _raw(tab.page.locator("body").inner_text()) == [], path

    # the editor sends back what is stored: a save of the page as shown keeps it
    tab.goto(f"/p/rin/memories/{key}")
    tab.page.fill("input[name=tags]", "kept")
    tab.follow("form.edit button[type=submit]")
    memory = app.memories.get("rin", key, recall=False)
    assert (memory.content, memory.tags) == (STORED, ("kept",))
    assert tab.page.locator("#content").inner_text() == SHOWN
    assert app.blocks.get_block("rin", "notes").content == STORED
    assert tab.errors == []


# a zero-width space, a soft hyphen and a word joiner hiding inside a word, LRM, a BOM mid-text
# and tag characters (unseen ASCII); kept: a ZWJ emoji sequence and a Persian ZWNJ
HIDDEN = (
    "pay\u200bpal \u00adad\u2060min \u200eok\ufeff, "
    "\U000e0069\U000e0067\U000e006e, 👩\u200d💻 می\u200cخواهم"
)
HIDDEN_SHOWN = (
    "pay⟨U+200B⟩pal ⟨U+00AD⟩ad⟨U+2060⟩min ⟨U+200E⟩ok⟨U+FEFF⟩, "
    "⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩, 👩\u200d💻 می\u200cخواهم"
)


def test_invisible_format_characters_are_shown_marked_and_joiners_in_scripts_kept(
    tab: Tab, site: Site
) -> None:
    """Before: a zero-width space, LRM, a BOM or tag characters were written into the page
    raw, unseen, so "pay\u200bpal" read as "paypal" and hidden ASCII went unnoticed."""
    app = site.omoide
    created = app.memories.create("rin", app.memories.build_new(content=HIDDEN))
    assert created.memory is not None
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{created.memory.key}")
    assert tab.page.locator("#content").inner_text() == HIDDEN_SHOWN
    assert tab.page.locator("textarea[name=content]").input_value() == HIDDEN  # as stored
    assert tab.page.locator(".controls-note").count() == 1
    assert tab.errors == []


CONTROL_URLS = [
    ("/login%1b", "the URL's path holds a control character (U+001B at position 7)"),
    ("/docs%1b", "the URL's path holds a control character (U+001B at position 6)"),
    ("/%1b", "the URL's path holds a control character (U+001B at position 2)"),
    ("/p/rin/memories%E2%80%AE", "the URL's path holds a control character (U+202E at position"),
    ("/p/rin%1b/memories", "the URL's persona holds a control character (U+001B at position 4)"),
    ("/p/rin/sessions?page=%1b", "query parameter 'page' holds a control character (U+001B"),
]


def test_a_control_character_in_a_page_url_is_the_same_clear_422_page_signed_in_or_out(
    tab: Tab, site: Site
) -> None:
    """A dashboard URL whose fixed part holds a control character (``/login%1b``, a mistyped
    or doctored link) matched no route: the API's JSON 404 ("no route /login\\u001b"), shown
    as raw text. It is now the dashboard's error page naming the character, as one in a path
    segment or query parameter a page reads already was, before and after sign-in alike."""
    for signed_in in (False, True):
        if signed_in:
            tab.sign_in(site.seeded.rin_key)
        for path, says in CONTROL_URLS:
            reply = tab.goto(path)
            assert (reply.status, signed_in) == (422, signed_in), path
            assert reply.headers["content-type"].startswith("text/html"), path
            said = tab.page.locator("p.error").inner_text()
            assert says in said and said.endswith("which it cannot hold; remove it"), said
            assert tab.page.locator("a[href='/']").count() >= 1, path  # the way back
            assert "Traceback" not in tab.page.content()
    assert all("status of 422" in error for error in tab.errors), tab.errors
