"""Session 23's probe, in a real browser (Debian's Chromium through Playwright): the memories
page applies its filters without a query."""

from __future__ import annotations

from dashboard_browser import Site, Tab


def _listed(tab: Tab) -> str:
    return tab.page.locator("table.memories").inner_text()


def test_the_filters_apply_without_a_query(tab: Tab, site: Site) -> None:
    """With the search box empty the page listed every memory whatever the filters said (and
    told the user to type a query); a person browsing by kind or tag gets what they asked."""
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/memories")
    tab.page.select_option("select[name=kind]", "fact")
    tab.follow("form.search button[type=submit]")
    assert "kind=fact" in tab.page.url
    listed = _listed(tab)
    assert site.seeded.tokyo in listed and site.seeded.kyoto in listed, listed
    assert site.seeded.tea not in listed and "Weekly plan" not in listed
    assert tab.page.locator("p.filtered").count() == 1
    tab.goto("/p/rin/memories?kind=fact&valid_at=now")  # the closed Tokyo fact drops out
    listed = _listed(tab)
    assert site.seeded.kyoto in listed and site.seeded.tokyo not in listed, listed
    tab.goto("/p/rin/memories?tags=plan")
    assert tab.page.locator("table.memories tbody tr").count() == 3
    assert "Weekly plan" in _listed(tab) and site.seeded.kyoto not in _listed(tab)
    tab.goto("/p/rin/memories?date_range=1999")  # nothing then: an empty page, not everything
    assert tab.page.locator("table.memories").count() == 0
    assert "No memories" in tab.page.locator("main").inner_text()
    refused = tab.goto("/p/rin/memories?date_range=someday")
    assert refused.status == 422
    assert "date range" in tab.page.locator("p.error").inner_text()
    tab.errors.clear()  # the browser logs the 422 it was just shown
    tab.goto("/p/rin/memories")  # no filter: everything, as before
    assert site.seeded.tea in _listed(tab) and tab.page.locator("p.filtered").count() == 0
    assert tab.errors == []
