"""The dashboard's cookie secret: one per data folder, or one given to every server."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

from omoide.api.http.dashboard.session import SECRET_FILE, SessionSigner, load_secret

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def test_a_folder_secret_is_made_once_with_mode_0600(tmp_path: Path) -> None:
    first = load_secret(tmp_path)
    assert load_secret(tmp_path) == first
    assert stat.S_IMODE((tmp_path / SECRET_FILE).stat().st_mode) == 0o600


def test_a_configured_secret_writes_no_file_and_is_shared_by_servers(tmp_path: Path) -> None:
    shared = "x" * 64
    one = SessionSigner(load_secret(tmp_path / "a", shared))
    other = SessionSigner(load_secret(tmp_path / "b", shared))
    cookie, session = one.issue(7, now=NOW)
    assert other.read(cookie, now=NOW) == session
    assert not (tmp_path / "a" / SECRET_FILE).exists()
    assert not (tmp_path / "b" / SECRET_FILE).exists()


def test_servers_with_their_own_folder_secrets_refuse_each_others_cookies(tmp_path: Path) -> None:
    one = SessionSigner(load_secret(tmp_path / "a"))
    other = SessionSigner(load_secret(tmp_path / "b"))
    cookie, _ = one.issue(7, now=NOW)
    assert other.read(cookie, now=NOW) is None
