"""Session 23's probe, in a real browser (Debian's Chromium through Playwright): the state page
shows keys closed with null, folded, with their validity windows."""

from __future__ import annotations

import re

from dashboard_browser import Site, Tab


def test_a_closed_user_state_key_keeps_its_history_on_the_page(tab: Tab, site: Site) -> None:
    """A key closed with null (the user asked not to be called by a nickname) vanished from
    the state page, though its bi-temporal history is kept."""
    site.omoide.state.update_user_state("rin", {"nickname": None})
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/state")
    current = tab.page.locator("#user-state table.grid").inner_text()
    assert "name" in current and "nickname" not in current  # the current view stays current
    folded = tab.page.locator("#user-closed")
    assert folded.get_attribute("open") is None  # folded until asked
    assert "1 closed key" in folded.locator("summary").inner_text()
    folded.locator("summary").click()
    entries = folded.locator("ol.timeline[data-key=nickname] li")
    assert entries.count() == 1
    assert entries.nth(0).locator(".value").inner_text() == "はるちゃん"
    window = entries.nth(0).locator(".window").inner_text()
    assert re.fullmatch(r"\S+ \S+ UTC → \S+ \S+ UTC", window), window
    # the current key's timeline is as it was
    name = tab.page.locator("#user-state > ol.timeline[data-key=name] li")
    assert name.count() == 2
    assert tab.errors == []
