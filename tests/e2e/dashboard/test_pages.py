"""The dashboard in a real browser: every page, search, editing a memory, blocks, the state
timeline and an episode's notes (Debian's Chromium through Playwright)."""

from __future__ import annotations

import re

import pytest
from dashboard_browser import Site, Tab
from playwright.sync_api import expect

from omoide.errors import NotFound

PAGES = [
    "/",
    "/p/rin",
    "/p/rin/memories",
    "/p/rin/memories?deleted=true",
    "/p/rin/blocks",
    "/p/rin/state",
    "/p/rin/sessions",
    "/p/rin/sessions/ses-cafe",
    "/p/rin/settings",
    "/p/kai",
    "/p/kai/memories",
]


def test_admin_sees_every_persona_with_counts(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    rows = tab.page.locator("table.grid tbody tr")
    assert rows.count() == 2
    expected = {s.name: s for s in site.omoide.overview.persona_summaries()}
    for i in range(2):
        cells = rows.nth(i).inner_text().split("\t")
        summary = expected[cells[0]]
        assert [int(c) for c in (cells[1], cells[2], cells[3], cells[4], cells[6])] == [
            summary.active,
            summary.closed,
            summary.tombstoned,
            summary.episodes,
            summary.queue,
        ]
    assert expected["rin"].closed >= 1 and expected["rin"].episodes == 1
    assert expected["kai"].active == 1
    assert tab.errors == []


def test_every_page_renders_without_console_errors(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    pages = [
        *PAGES,
        f"/p/rin/memories/{site.seeded.tokyo}",
        f"/p/rin/memories/{site.seeded.tea}",
        f"/p/kai/memories/{site.seeded.kai_secret}",
    ]
    for path in pages:
        reply = tab.goto(path)
        assert reply.status == 200, path
        assert tab.page.locator("h1").count() >= 1, path
        assert reply.headers["content-security-policy"].startswith("default-src 'self'")
    assert tab.errors == []
    assert all(url.startswith(site.url) for url in tab.requests)


def test_japanese_and_english_text_render(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{site.seeded.tea}")
    assert (
        tab.page.locator("#content").inner_text()
        == "User prefers green tea over coffee, 特に抹茶が好き。"
    )
    tab.goto("/p/rin/blocks")
    assert "穏やかで好奇心旺盛。" in tab.page.locator("#block-persona_state").inner_text()


def test_search_uses_mode_and_filters(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/memories")
    tab.page.fill("input[type=search]", "抹茶")
    tab.page.select_option("select[name=mode]", "keyword")
    tab.follow("form.search button[type=submit]")
    hits = tab.page.locator("ol.hits li.hit")
    assert hits.count() >= 1
    assert site.seeded.tea in hits.first.inner_text()
    # a tag filter that the tea memory does not carry removes it (filters before top-k)
    tab.page.fill("input[name=tags]", "plan")
    tab.follow("form.search button[type=submit]")
    assert "tags=plan" in tab.page.url
    assert site.seeded.tea not in tab.page.locator("main").inner_text()
    assert tab.errors == []


def test_search_filters_by_kind_and_valid_at(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/memories?q=ユーザー&mode=keyword&kind=fact")
    found = tab.page.locator("ol.hits").inner_text()
    assert site.seeded.tokyo in found and site.seeded.kyoto in found
    assert site.seeded.tea not in found  # a preference
    tab.goto("/p/rin/memories?q=ユーザー&mode=keyword&kind=fact&valid_at=now")
    found = tab.page.locator("ol.hits").inner_text()
    assert site.seeded.kyoto in found and site.seeded.tokyo not in found  # closed before now
    assert tab.errors == []


def test_closed_fact_shows_validity_end_and_successor(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/memories?q=東京&mode=keyword")
    mark = tab.page.locator("li.hit .badge.closed").first
    assert re.search(r"valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC", mark.inner_text())
    assert site.seeded.kyoto in mark.inner_text()
    tab.follow(mark.locator("a"))  # the successor is a link
    assert tab.page.locator("#content").inner_text() == "ユーザーは京都に引っ越した。"


def test_memory_detail_draws_the_forgetting_curve(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{site.seeded.tea}")
    curve = tab.page.locator("figure.curve svg polyline")
    assert curve.count() >= 1
    points = curve.last.get_attribute("points").split()
    ys = [float(p.split(",")[1]) for p in points]
    assert len(ys) > 50 and ys == sorted(ys)  # R(t) never rises: y (downwards) never falls
    caption = tab.page.locator("figcaption").inner_text()
    assert "S = 15.00 days" in caption and "1 recall, the last on" in caption
    assert tab.page.locator("figure.curve svg circle").count() == 1  # the recall


def test_edit_memory_then_see_its_new_version(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{site.seeded.kyoto}")
    before = tab.page.locator("ol.versions > li").count()
    tab.page.fill("textarea[name=content]", "ユーザーは京都の左京区に引っ越した。")
    tab.page.fill("input[name=tags]", "home, 京都")
    tab.follow("form.edit button[type=submit]")
    assert tab.page.locator("#content").inner_text() == "ユーザーは京都の左京区に引っ越した。"
    newest = tab.page.locator("ol.versions > li").first
    assert "update by dashboard" in newest.inner_text()
    assert newest.locator("ins").first.inner_text() == "の左京区"
    assert "京都" in newest.inner_text()
    assert tab.page.locator("ol.versions > li").count() == before + 1
    assert tab.errors == []


def test_tombstone_keeps_the_memory_readable(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{site.seeded.tea}")
    tab.follow("text=Tombstone")
    assert tab.page.locator("h1 .badge.deleted").count() == 1
    assert "delete by" in tab.page.locator("ol.versions > li").first.inner_text()


def test_purge_asks_first_then_erases_the_memory(tab: Tab, site: Site) -> None:
    key = site.seeded.tea
    tab.sign_in(site.admin_key)
    tab.goto(f"/p/rin/memories/{key}")
    tab.follow("text=Purge…")
    assert tab.page.url == f"{site.url}/p/rin/memories/{key}/purge"
    assert "cannot be undone" in tab.page.locator("main").inner_text()
    assert site.omoide.memories.get("rin", key, recall=False).key == key  # not yet
    tab.follow(f"text=Purge {key} for good")
    assert tab.page.locator(".notice").inner_text().startswith(f"Purged {key}")
    assert key not in tab.page.locator("table.memories").inner_text()
    assert tab.errors == []
    assert tab.goto(f"/p/rin/memories/{key}").status == 404
    with pytest.raises(NotFound):
        site.omoide.memories.get("rin", key, recall=False)


def test_create_and_delete_a_block_with_a_live_token_count(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/blocks")
    tab.page.fill("input[name=block_name]", "active_context")
    tab.page.fill("input[name=max_tokens]", "5")
    tab.page.fill("textarea[name=content]", "今日は雨")
    counter = tab.page.locator("[data-token-output]")
    expect(counter).to_have_text("4")  # 今日は雨: one token per CJK character
    tab.page.fill("textarea[name=content]", "今日は雨が降っている")
    expect(counter).to_have_text("10")
    assert "over" in tab.page.locator(".token-count").get_attribute("class")
    tab.follow("form.block-editor button[type=submit]")  # over max_tokens: refused
    assert "over its max_tokens of 5" in tab.page.locator(".error").inner_text()
    assert tab.errors == [
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"
    ]  # the refused save, and nothing else
    tab.errors.clear()
    tab.page.fill("input[name=max_tokens]", "50")
    tab.follow("form.block-editor button[type=submit]")
    row = tab.page.locator("#block-active_context")
    assert "10 / 50" in row.inner_text()
    tab.follow(row.locator("button.danger"))
    assert tab.page.locator("#block-active_context").count() == 0
    assert tab.errors == []


def test_state_page_shows_each_keys_timeline(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/state")
    name = tab.page.locator("#user-state ol.timeline[data-key=name] li")
    assert [name.nth(i).locator(".value").inner_text() for i in range(name.count())] == [
        "はるか",
        "Haruka",
    ]
    assert "now (current)" in name.nth(1).inner_text()
    closed_window = name.nth(0).locator(".window").inner_text()
    assert re.fullmatch(r"\S+ \S+ UTC → \S+ \S+ UTC", closed_window)
    assert "calm" in tab.page.locator("#persona-state").inner_text()


def test_session_shows_turns_episode_and_its_notes(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/sessions")
    tab.follow(f"text={site.seeded.session_id}")
    assert tab.page.locator(".turn").count() == 10
    assert tab.page.locator("h2.episode").count() == 1
    notes = tab.page.locator("section.notes li")
    assert notes.count() >= 3
    assert "Osaka" in tab.page.locator("section.notes").inner_text()
    tab.follow(notes.first.locator("a"))  # a note links to its memory, whose sources link back
    assert tab.page.locator("ul.sources li").count() >= 1


def test_failed_job_shows_its_error_and_can_be_retried(tab: Tab, site: Site) -> None:
    tab.sign_in(site.admin_key)
    tab.goto("/p/rin")
    failed = tab.page.locator("#jobs ~ table.grid").first
    assert "NotFound: no memory 'mem_missing'" in failed.inner_text()
    job_id = int(failed.locator("td").first.inner_text().lstrip("#"))
    site.omoide.runner.stop()  # so the retried job stays in the queue for us to see
    tab.follow(failed.locator("button", has_text="Retry"))
    assert tab.page.url.endswith("/p/rin#jobs")
    assert site.omoide.overview.jobs("rin", "failed") == []
    queued = tab.page.locator("h3", has_text="Queue").locator("xpath=following-sibling::table[1]")
    assert f"#{job_id}\tmemory.evolve\tpending\t0/1" in queued.inner_text()
    assert tab.errors == []


def test_settings_lists_every_setting_and_saves_an_override(tab: Tab, site: Site) -> None:
    from omoide.config import PERSONA_SETTINGS

    tab.sign_in(site.admin_key)
    tab.goto("/p/rin/settings")
    for name in (
        "context_use_llm_summary",
        "keep_recent",
        "summary_max_chars",
        *(s.name for s in PERSONA_SETTINGS),
    ):
        assert tab.page.locator(f"#s-{name}").count() == 1, name
    row = tab.page.locator("#s-keep_recent")
    row.locator("input[name=value]").fill("9")
    tab.follow(row.locator("button[value=save]"))
    row = tab.page.locator("#s-keep_recent")
    assert row.locator("td").nth(2).inner_text() == "9"
    assert site.omoide.settings_service.get("rin").keep_recent == 9
    tab.follow(row.locator("button[value=reset]"))
    assert tab.page.locator("#s-keep_recent td").nth(2).inner_text() == "—"
    assert tab.errors == []
