"""The CLI as the README documents it, through click's runner on a real data folder.

``omoide memory get`` and ``omoide stats`` without ``--json`` print one ``field: value`` line
per field of the JSON the API answers (api/render.py), each value as JSON writes it:
``tags: ["home", "tea"]``, ``emotion_type: null``, ``by_kind: {"note": 1}``. They printed
Python's forms (``['home', 'tea']``, ``None``, ``{'note': 1}``), which no other surface
writes."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    runner = CliRunner()

    def invoke(*args: str) -> click.testing.Result:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    return invoke


def test_memory_get_prints_each_value_as_json_writes_it(run) -> None:
    run("persona", "create", "rin")
    added = run(
        "memory",
        "add",
        "-p",
        "rin",
        "Ken drinks green tea",
        "--tag",
        "home",
        "--tag",
        "tea",
        "--json",
    )
    key = json.loads(added.output)["memory"]["key"]
    lines = run("memory", "get", "-p", "rin", key).output.splitlines()
    assert f"key: {key}" in lines
    assert "content: Ken drinks green tea" in lines  # text as it is, not quoted
    assert 'tags: ["home", "tea"]' in lines
    assert "emotion_type: null" in lines
    assert "metadata: {}" in lines
    assert "sources: []" in lines
    assert not any("None" in line or "['" in line for line in lines), lines


def test_stats_prints_each_value_as_json_writes_it(run) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "Ken drinks green tea", "--kind", "preference")
    lines = run("stats", "-p", "rin").output.splitlines()
    assert "persona: rin" in lines
    assert "active: 1" in lines
    assert 'by_kind: {"preference": 1}' in lines


@pytest.mark.parametrize("batch", ["0", "-5"])
def test_reindex_refuses_a_batch_below_one(tmp_path: Path, monkeypatch, batch: str) -> None:
    """``omoide reindex --batch 0`` was a traceback; ``--batch -5`` re-embedded nothing and
    said every row was done. Refused as a bad option, before the folder is opened."""
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["reindex", "--batch", batch])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"Invalid value for '--batch': must be at least 1, got {batch}" in result.output
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("timeout", ["-1", "3601"])
def test_jobs_wait_names_its_bounds_and_what_was_sent(run, timeout: str) -> None:
    """README: `omoide jobs wait` waits 600 s by default; it takes 0 to 3600 (an hour), and a
    refusal names the option and says what was sent, as the API's do."""
    run("persona", "create", "rin")
    refused = CliRunner().invoke(main, ["jobs", "wait", "-p", "rin", "--timeout", timeout])
    assert refused.exit_code == 2, refused.output
    rule = "at least 0" if timeout.startswith("-") else "at most 3600"
    assert refused.output.strip().splitlines()[-1] == (
        f"Error: Invalid value for '--timeout': must be {rule}, got {timeout}"
    )


@pytest.mark.parametrize(
    ("command", "option", "value", "message"),
    [
        pytest.param("memory", "--limit", "0", "must be at least 1, got 0", id="memory-0"),
        pytest.param(
            "memory", "--limit", "5000", "must be at most 1000, got 5000", id="memory-5000"
        ),
        pytest.param("memory", "--offset", "-1", "must be at least 0, got -1", id="m-off"),
        pytest.param("session", "--limit", "0", "must be at least 1, got 0", id="session-0"),
        pytest.param("session", "--offset", "-1", "must be at least 0, got -1", id="s-off"),
    ],
)
def test_a_list_page_out_of_bounds_is_told_in_the_apis_words(
    run, command: str, option: str, value: str, message: str
) -> None:
    """docs/api.md: a bound is told in the same words on every surface; ``memory list
    --limit 0`` said "limit must be between 1 and 1000" where HTTP says "limit must be at
    least 1, got 0". The CLI names the option typed, as for any bad option value."""
    run("persona", "create", "rin")
    refused = CliRunner().invoke(main, [command, "list", "-p", "rin", option, value])
    assert refused.exit_code == 2, refused.output
    assert refused.output.strip().splitlines()[-1] == (
        f"Error: Invalid value for '{option}': {message}"
    )


def test_an_import_says_how_many_keys_it_moved(run, tmp_path: Path) -> None:
    """docs/import.md: a persona's file imported into another persona of the same folder gives
    each memory a new key, and "the report lists the moved keys": the CLI's line says how
    many (``--json`` maps each), as it says how many duplicates it kept."""
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "Ken drinks green tea every morning")
    run("memory", "add", "-p", "rin", "Ken's sister lives in Kyoto")
    exported = tmp_path / "rin.jsonl"
    run("export", "-p", "rin", "--out", str(exported))
    said = run("import", "-p", "haru", str(exported)).output
    assert "; 2 keys moved (another persona of this folder holds them" in said, said
