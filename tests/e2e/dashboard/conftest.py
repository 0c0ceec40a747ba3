"""Browser fixtures: Debian's Chromium driven by Playwright (never a downloaded browser).

Without ``chromium`` on the PATH the browser tests skip, saying how to install it; under CI
(``CI=true``) they fail instead, so a CI machine without the browser cannot pass silently.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dashboard_browser import ADMIN_KEY, CHROMIUM_ARGS, Site, Tab
from dashboard_seed import seed_dashboard
from omoide_testing import serve_in_thread, wait_for_jobs

from omoide.clock import FixedClock
from omoide.wiring import Omoide


def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        reason = (
            "Debian's chromium is not installed; run "
            "`apt-get install -y chromium fonts-ipafont-gothic` (.ci/run does)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module (closed before the next module's event loops run)."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def site(app: Omoide, clock: FixedClock, data_dir: Path) -> Iterator[Site]:
    from omoide.api.http.app import create_app

    app.auth.ensure_admin_key(data_dir, ADMIN_KEY)
    seeded = seed_dashboard(app, clock)
    uv, thread, url = serve_in_thread(create_app(app))
    for persona in ("rin", "kai"):  # the evolution jobs the seed queued
        wait_for_jobs(app, persona)
    yield Site(url=url, omoide=app, seeded=seeded)
    uv.should_exit = True
    thread.join(10)


@pytest.fixture
def tab(browser: Any, site: Site) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    context.set_default_timeout(15_000)
    page = context.new_page()
    opened = Tab(page=page, base=site.url)
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.errors.append(str(e)))
    page.on("request", lambda r: opened.requests.append(r.url))
    yield opened
    context.close()
