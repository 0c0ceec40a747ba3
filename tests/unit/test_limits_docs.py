"""docs/api.md states the input limits the validation enforces (not only the OpenAPI
descriptions do)."""

from __future__ import annotations

from pathlib import Path

from omoide.service import validate

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _row(what: str) -> str:
    rows = [
        line
        for line in API_DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith(f"| {what}")
    ]
    assert len(rows) == 1, f"docs/api.md has no single limits row for {what!r}"
    return rows[0]


def test_metadata_limits_are_documented_as_enforced() -> None:
    row = _row("metadata")
    assert f"{validate.MAX_METADATA_CHARS:,} characters" in row
    assert f"nested at most {validate.MAX_METADATA_DEPTH} levels" in row


def test_tag_limits_are_documented_as_enforced() -> None:
    assert f"at most {validate.MAX_TAGS} per memory" in _row("tags")
