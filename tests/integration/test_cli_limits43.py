"""Session 43's probe, through the CLI's entry point: the inputs it shares with HTTP and MCP are
refused alike. ``omoide search --valid-at ''`` searched with no validity filter, as if one had
applied (HTTP's ``valid_at=`` and MCP's ``valid_at=""`` are refused); a time or a date range past
its length, and content longer than the limit once in NFC, are told as over HTTP."""

from __future__ import annotations

from pathlib import Path

import click.testing
import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.validate import MAX_DATE_RANGE_CHARS, MAX_TIMESTAMP_CHARS


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OMOIDE_PORT", raising=False)

    def invoke(*args: str) -> click.testing.Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    assert invoke("persona", "create", "rin").exit_code == 0
    return invoke


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--valid-at", "", 'valid_at must not be empty, got ""'),
        (
            "--valid-at",
            "2026-03-01" + " " * MAX_TIMESTAMP_CHARS,
            f"valid_at must be at most {MAX_TIMESTAMP_CHARS} characters, "
            f"got {10 + MAX_TIMESTAMP_CHARS}",
        ),
        (
            "--date-range",
            "last week" + " " * MAX_DATE_RANGE_CHARS,
            f"date_range must be at most {MAX_DATE_RANGE_CHARS} characters, "
            f"got {9 + MAX_DATE_RANGE_CHARS}",
        ),
    ],
)
def test_a_search_filter_is_refused_as_over_http(run, option: str, value: str, said: str) -> None:
    """In HTTP's words for the rule, naming the option typed as it is read (session 45: it
    was the service's whole message, ``valid_at must …``, once the folder was open)."""
    result = run("search", "-p", "rin", "tea", option, value)
    assert result.exit_code == 2, result.output
    field, rule = said.split(" ", 1)
    assert field == option.removeprefix("--").replace("-", "_")
    assert result.output.splitlines()[-1] == f"Error: Invalid value for '{option}': {rule}"


def test_content_longer_once_in_nfc_says_how_it_is_counted(run) -> None:
    sent = "\u0958" * (MAX_CONTENT_CHARS // 2 + 1)
    result = run("memory", "add", "-p", "rin", sent)
    assert result.exit_code == 1, result.output
    assert result.output.startswith(
        f"Error: content must be at most {MAX_CONTENT_CHARS:,} characters, got "
        f"{2 * len(sent):,}, counted in code points of its Unicode NFC form"
    ), result.output[:300]
    assert run("memory", "list", "-p", "rin", "--json").output.count('"key"') == 0
