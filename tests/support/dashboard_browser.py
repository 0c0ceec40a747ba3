"""Browser-test helpers shared by the dashboard tests and the screenshot script."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dashboard_seed import Seeded

from omoide.wiring import Omoide

__all__ = ["ADMIN_KEY", "CHROMIUM_ARGS", "Site", "Tab"]

ADMIN_KEY = "omo_admin_browser-test"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@dataclass
class Site:
    """The seeded dashboard served by a real uvicorn server."""

    url: str
    omoide: Omoide
    seeded: Seeded
    admin_key: str = ADMIN_KEY


@dataclass
class Tab:
    """A browser page on the site that records console errors and requests."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def goto(self, path: str) -> Any:
        return self.page.goto(self.base + path)

    def follow(self, target: Any) -> None:
        """Click a link or a submit button (a selector or a locator) and wait until the page it
        leads to has loaded: a bare click returns once navigation starts, so a locator read
        straight after may see the page before, or an empty document."""
        clickable = self.page.locator(target) if isinstance(target, str) else target
        with self.page.expect_navigation(wait_until="load"):
            clickable.click()

    def sign_in(self, key: str) -> None:
        self.goto("/login")
        self.page.fill("input[name=key]", key)
        self.page.click("button[type=submit]")
        self.page.wait_for_url(self.base + "/")
