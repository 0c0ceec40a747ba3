"""Interop tests: export/import restore rows through the SQLite adapter's bulk methods."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Export/import (and the MCP memory import's links) use the bulk dump/restore adapters,
    # which only the SQLite store has yet; the marker keeps those tests on it.
    config.addinivalue_line("markers", "sqlite_only: about the SQLite store only")
