"""An HTTP import whose upload finds the data folder's disk full is the 507 ``storage_full``
every other full-disk write gives, not a 500.

The disk: the upload's spool file in ``<data>/uploads`` replaced by a link to ``/dev/full``,
the kernel's device whose every write fails with ENOSPC ("No space left on device"), as a
full file system's do. The link is what the import writes through and what it removes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from omoide_testing import LiveServer

from omoide.api.http import uploads

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")

EXPORT = (
    '{"type": "header", "format": "omoide-export", "version": 1}\n'
    + '{"type": "memory", "id": "m1", "content": "The user keeps bees."}\n' * 50
)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    locked_file = uploads._locked_file

    def on_full_disk(folder: Path) -> tuple[int, Path]:
        fd, path = locked_file(folder)
        path.unlink()
        os.symlink("/dev/full", path)
        return fd, path

    monkeypatch.setattr(uploads, "_locked_file", on_full_disk)


def test_an_upload_onto_a_full_disk_is_507_and_leaves_nothing(
    server: LiveServer, full_disk: Any
) -> None:
    """Before: 500 ``internal_error`` (OSError ENOSPC from the spool file's write)."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        reply = rin.post(
            "/api/import/rin",
            content=EXPORT.encode(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert reply.status_code == 507, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_full"
        data = server.omoide.settings.data_dir
        assert error["message"].startswith(f"the disk of the data folder '{data}' is full")
        assert "nothing was imported" in error["message"]
        assert "free some space" in error["message"]
        assert list((data / uploads.UPLOADS).iterdir()) == []  # the link is gone too
        assert rin.get("/api/memories/rin").json()["memories"] == []
