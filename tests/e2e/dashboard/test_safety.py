"""Sign-in, isolation, CSRF and escaping, checked in a real browser."""

from __future__ import annotations

from dashboard_browser import Site, Tab

HOSTILE_PAGES = [
    "/p/rin/memories",
    "/p/rin/blocks",
    "/p/rin/state",
    "/p/rin",
    "/p/rin/memories?q=web+page&mode=keyword",
    "/p/rin/sessions/ses-open",
]


def test_signed_out_visitor_is_sent_to_login(tab: Tab, site: Site) -> None:
    tab.goto("/p/rin/memories")
    assert tab.page.url == site.url + "/login"
    assert tab.page.locator("input[name=key]").count() == 1


def test_wrong_key_is_refused(tab: Tab, site: Site) -> None:
    tab.goto("/login")
    tab.page.fill("input[name=key]", "omo_p_not-a-key")
    tab.follow("button[type=submit]")
    assert tab.page.locator(".error").inner_text() == "Unknown or revoked key."
    assert tab.goto("/").url == site.url + "/login"


def test_session_cookie_is_httponly_strict_and_holds_no_key(tab: Tab, site: Site) -> None:
    tab.sign_in(site.seeded.rin_key)
    cookies = {c["name"]: c for c in tab.page.context.cookies()}
    session = cookies["omoide_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    assert session["expires"] > 0
    assert site.seeded.rin_key not in session["value"]
    assert tab.page.evaluate("() => document.cookie") == ""


def test_persona_key_sees_only_its_persona(tab: Tab, site: Site) -> None:
    tab.sign_in(site.seeded.rin_key)
    assert tab.page.locator("table.grid tbody tr").count() == 1
    assert tab.page.locator("table.grid tbody").inner_text().startswith("rin")
    assert "persona rin" in tab.page.locator(".who").inner_text()
    for path in (
        "/p/kai",
        "/p/kai/memories",
        f"/p/kai/memories/{site.seeded.kai_secret}",
        "/p/kai/blocks",
        "/p/kai/state",
        "/p/kai/sessions",
        "/p/kai/settings",
    ):
        reply = tab.goto(path)
        assert reply.status == 403, path
        assert "lighthouse" not in tab.page.content()
    # kai's memory is not reachable under rin's own name either
    assert tab.goto(f"/p/rin/memories/{site.seeded.kai_secret}").status == 404


def test_admin_key_sees_both_personas(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    assert tab.goto(f"/p/kai/memories/{site.seeded.kai_secret}").status == 200
    assert "lighthouse" in tab.page.locator("#content").inner_text()


def test_sign_out_ends_the_session(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.follow("form.signout button")
    assert tab.page.url == site.url + "/login"
    assert tab.goto("/p/rin").url == site.url + "/login"


def test_posts_without_the_csrf_token_are_refused(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    request = tab.page.context.request  # shares the browser's session cookie
    for path, form in (
        ("/p/rin/blocks", {"block_name": "x", "content": "y", "max_tokens": "50", "priority": "0"}),
        (f"/p/rin/memories/{site.seeded.tea}/delete", {}),
        ("/p/rin/settings", {"name": "keep_recent", "value": "1"}),
        ("/logout", {}),
    ):
        assert request.post(site.url + path, form=form).status == 403, path
        assert request.post(site.url + path, form={**form, "csrf": "forged"}).status == 403
    assert [b.block_name for b in site.omoide.blocks.list_blocks("rin")] == [
        "persona_state",
        "user_model",
    ]
    assert site.omoide.memories.get("rin", site.seeded.tea, recall=False).status == "active"
    assert site.omoide.settings_service.get("rin").keep_recent == 6


def test_markup_in_content_is_shown_as_text_and_never_runs(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    for path in [*HOSTILE_PAGES, f"/p/rin/memories/{site.seeded.hostile}"]:
        tab.goto(path)
        assert tab.page.evaluate("() => window.__omoide_pwned") is None, path
        assert tab.page.locator("main img").count() == 0, path
        assert tab.page.locator("main script").count() == 0, path
    tab.goto(f"/p/rin/memories/{site.seeded.hostile}")
    text = tab.page.locator("#content").inner_text()
    assert '<img src=x onerror="window.__omoide_pwned = 1">' in text
    assert "<script>window.__omoide_pwned = 2</script>" in text
    assert tab.page.locator(".tag").first.inner_text() == "<b>tag</b>"
    assert tab.errors == []


def test_docs_work_offline(tab: Tab, site: Site) -> None:
    reply = tab.goto("/docs")
    assert reply.status == 200
    tab.page.locator(".opblock").first.wait_for()
    assert tab.page.locator(".opblock").count() > 20  # the API's operations are listed
    assert all(url.startswith(site.url) for url in tab.requests), tab.requests
    assert tab.errors == []


def test_a_page_number_that_is_no_number_shows_an_error_page(tab: Tab, site: Site) -> None:
    """``?page=1_0`` (a mistyped or edited link) was read as page 10 by ``int()``: the page
    says which parameter is not a number, with a 422, as the API does; ``?page=２`` (typed with
    a Japanese input method) is page 2."""
    tab.sign_in(site.admin_key)
    for path, name in (
        ("/p/rin/sessions?page=1_0", "page"),
        (f"/p/rin/sessions/{site.seeded.session_id}?after=1_0", "after"),
    ):
        reply = tab.goto(path)
        assert reply.status == 422, path
        said = tab.page.locator("main").inner_text()
        assert f"query parameter '{name}' must be an integer written with the digits 0-9" in said, (
            said
        )
        assert 'got "1_0"' in said
    assert tab.goto("/p/rin/sessions?page=２").status == 200
    assert "page 2" in tab.page.locator("main").inner_text()
    assert all("status of 422" in error for error in tab.errors), tab.errors  # the two pages


def test_an_odd_dashboard_url_shows_the_dashboards_error_page(tab: Tab, site: Site) -> None:
    """Session 30: a URL refused before any page's route (a NUL in the path, a page no route
    has) showed the API's JSON as raw text in the browser."""
    tab.sign_in(site.seeded.rin_key)
    for path, status, says in [
        ("/p/rin%00", 422, "NUL character"),
        ("/p/rin/nothing", 404, "no page /p/rin/nothing"),
    ]:
        reply = tab.goto(path)
        assert reply.status == status, path
        assert reply.headers["content-type"].startswith("text/html"), path
        assert says in tab.page.locator("p.error").inner_text(), path
        assert tab.page.locator("a[href='/']").count() >= 1  # the way back
