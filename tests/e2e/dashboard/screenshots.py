"""Take the README's dashboard screenshots (docs/img/dashboard-*.png) from the demo data.

    .venv/bin/python tests/e2e/dashboard/screenshots.py [--out docs/img]

Seeds a temporary data folder with the browser tests' demo data, serves it, signs in with the
admin key in Debian's Chromium and captures the main pages at 1280×960 (the session page whole).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2] / "support"))

from dashboard_browser import ADMIN_KEY, CHROMIUM_ARGS  # noqa: E402
from dashboard_seed import seed_dashboard  # noqa: E402
from omoide_testing import serve_in_thread, wait_for_jobs  # noqa: E402

from omoide.api.http.app import create_app  # noqa: E402
from omoide.clock import FixedClock  # noqa: E402
from omoide.config import Settings  # noqa: E402
from omoide.embed import make_embedder  # noqa: E402
from omoide.embed.hashing import HashEmbedder  # noqa: E402
from omoide.wiring import build  # noqa: E402


def shots(seeded: object) -> list[tuple[str, str, bool]]:
    """(name, path, whole page?)"""
    tea = seeded.tea  # type: ignore[attr-defined]
    return [
        ("personas", "/", False),
        ("overview", "/p/rin", False),
        ("search", "/p/rin/memories?q=京都&mode=hybrid", False),
        ("memory", f"/p/rin/memories/{tea}", False),
        ("blocks", "/p/rin/blocks?edit=user_model", False),
        ("state", "/p/rin/state", False),
        ("session", "/p/rin/sessions/ses-cafe", True),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE.parents[3] / "docs" / "img")
    parser.add_argument(
        "--embedder",
        default="e5",
        help="e5 (default), use or hash (fast, but its search ranking is meaningless)",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="omoide-shots-"))
    clock = FixedClock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=4))
    embedder = HashEmbedder() if args.embedder == "hash" else make_embedder(args.embedder)
    app = build(Settings.from_env({}, data_dir=root), embedder=embedder, clock=clock, llm=None)
    app.auth.ensure_admin_key(root, ADMIN_KEY)
    seeded = seed_dashboard(app, clock)
    uv, thread, url = serve_in_thread(create_app(app))
    try:
        for persona in ("rin", "kai"):
            wait_for_jobs(app, persona)
        _capture(url, seeded, args.out)
    finally:
        uv.should_exit = True
        thread.join(10)
        app.close()
        shutil.rmtree(root, ignore_errors=True)


def _capture(url: str, seeded: object, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit(
            "chromium is not installed: apt-get install -y chromium fonts-ipafont-gothic"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 960})
        page.goto(url + "/login")
        page.fill("input[name=key]", ADMIN_KEY)
        page.click("button[type=submit]")
        page.wait_for_url(url + "/")
        for name, path, whole in shots(seeded):
            page.goto(url + path)
            target = out / f"dashboard-{name}.png"
            page.screenshot(path=str(target), full_page=whole)
            print(f"{target} ({target.stat().st_size // 1024} KiB)")
        browser.close()


if __name__ == "__main__":
    main()
