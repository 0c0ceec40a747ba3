"""Session 45: a bad option value was told three ways. ``reindex --batch 0`` in click's words
naming the option; ``memory list --limit 0``, ``jobs wait --timeout 9999``, ``search --top-k
0`` and ``memory add --importance 2`` by the service, naming its field (``limit``,
``timeout``) rather than the option typed, and ``--importance 2`` in other words than HTTP and
MCP say ("must be between 0 and 1, got 2.0" where they say "must be at most 1, got 2");
``search --mode fuzzy`` and ``import --from nope`` in click's own ("'fuzzy' is not one of …")
while ``--kind gossip`` had the service's; ``search --valid-at soon``, ``--date-range`` and
``import --user-id ''`` by the service under its field's name (``valid_at is not …``, exit 1).
Each is now refused as the option is read, before the data folder is opened, naming the
option in click's words for a bad value and the rule in the API's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer, refused

from omoide.cli import main
from omoide.service.validate import NON_BLANK_RULE


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(
            ["memory", "add", "-p", "rin", "tea", "--importance", "2"],
            "Invalid value for '--importance': must be at most 1, got 2",
            id="importance-high",
        ),
        pytest.param(
            ["memory", "add", "-p", "rin", "tea", "--emotion-intensity", "-0.5"],
            "Invalid value for '--emotion-intensity': must be at least 0, got -0.5",
            id="intensity-low",
        ),
        pytest.param(
            ["memory", "add", "-p", "rin", "tea", "--kind", "gossip"],
            "Invalid value for '--kind': must be one of 'note', 'fact', 'preference', "
            "'profile', 'event' or 'instruction', got \"gossip\"",
            id="kind",
        ),
        pytest.param(
            ["search", "-p", "rin", "tea", "--mode", "fuzzy"],
            "Invalid value for '--mode': must be one of 'hybrid', 'semantic' or 'keyword', "
            'got "fuzzy"',
            id="mode",
        ),
        pytest.param(
            ["search", "-p", "rin", "tea", "--top-k", "0"],
            "Invalid value for '--top-k': must be at least 1, got 0",
            id="top-k",
        ),
        pytest.param(
            ["memory", "list", "-p", "rin", "--limit", "5000"],
            "Invalid value for '--limit': must be at most 1000, got 5000",
            id="limit",
        ),
        pytest.param(
            ["jobs", "wait", "-p", "rin", "--timeout", "9999"],
            "Invalid value for '--timeout': must be at most 3600, got 9999",
            id="timeout",
        ),
        pytest.param(
            ["reindex", "--batch", "0"],
            "Invalid value for '--batch': must be at least 1, got 0",
            id="batch",
        ),
        pytest.param(
            ["import", "-p", "rin", "--from", "nope", "/dev/null"],
            "Invalid value for '--from': must be one of 'omoide', 'mem0', 'mcp-memory' or "
            "'chat', got \"nope\"",
            id="from",
        ),
        pytest.param(
            ["serve", "--port", "70000"],
            "Invalid value for '--port': must be at most 65535, got 70000",
            id="port",
        ),
        # and the text options the service checks, told as ``valid_at is not …`` (exit 1)
        pytest.param(
            ["search", "-p", "rin", "tea", "--valid-at", "soon"],
            "Invalid value for '--valid-at': is not a valid ISO-8601 date or timestamp: "
            '"soon" (e.g. 2026-03-01 or 2026-03-01T09:30:00+09:00)',
            id="valid-at",
        ),
        pytest.param(
            ["search", "-p", "rin", "tea", "--valid-at", ""],
            "Invalid value for '--valid-at': must not be empty, got \"\"",
            id="valid-at-empty",
        ),
        pytest.param(
            ["search", "-p", "rin", "tea", "--date-range", " "],
            f"Invalid value for '--date-range': {NON_BLANK_RULE}; leave it out for no date filter",
            id="date-range-blank",
        ),
        pytest.param(
            ["search", "-p", "rin", "tea", "--date-range", "2026-05..2026-03"],
            "Invalid value for '--date-range': date range \"2026-05..2026-03\" ends before it "
            "starts: give the earlier end first, A..B (e.g. 2026-03-01..2026-03-15)",
            id="date-range-backwards",
        ),
        pytest.param(
            ["import", "-p", "rin", "--from", "mem0", "--user-id", "", "/dev/null"],
            "Invalid value for '--user-id': must not be empty, got \"\"",
            id="user-id-empty",
        ),
        pytest.param(
            ["import", "-p", "rin", "--from", "mem0", "--user-id", "u" * 201, "/dev/null"],
            "Invalid value for '--user-id': must be at most 200 characters, got 201",
            id="user-id-long",
        ),
    ],
)
def test_a_bad_option_value_is_refused_naming_the_option_before_the_folder_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], said: str
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 2, done.output
    assert done.output.splitlines()[-1] == f"Error: {said}", done.output
    assert "Traceback" not in done.output
    assert not data.exists()  # refused as it was read: no folder made, no embedder loaded


@pytest.mark.sqlite_only
def test_an_importance_out_of_range_is_the_same_rule_on_http_and_the_cli(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post("/api/memories/rin", json={"content": "Ken likes tea.", "importance": 2})
    assert refused(reply, 422)["message"] == "importance must be at most 1, got 2"
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "cli"))
    done = CliRunner().invoke(main, ["memory", "add", "-p", "rin", "tea", "--importance", "2"])
    assert done.output.splitlines()[-1].endswith(": must be at most 1, got 2"), done.output
