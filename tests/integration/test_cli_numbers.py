"""Session 25's probe: the CLI's number options went through ``int()``/``float()``, so
``--limit 1_0`` listed ten and ``--importance nan`` reached the service. They read numbers as the
HTTP query and the settings form do (``engine.number_text``). Through the entry point."""

from __future__ import annotations

import json
from pathlib import Path

import click.testing
import pytest
from click.testing import CliRunner

from omoide.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OMOIDE_PORT", raising=False)

    def invoke(*args: str) -> click.testing.Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.mark.parametrize(
    ("args", "option", "text"),
    [
        (("memory", "list", "-p", "rin", "--limit", "1_0"), "--limit", "1_0"),
        (("memory", "add", "-p", "rin", "tea", "--importance", "nan"), "--importance", "nan"),
        (("memory", "add", "-p", "rin", "tea", "--importance", ".5"), "--importance", ".5"),
        (("search", "-p", "rin", "tea", "--top-k", "+5"), "--top-k", "+5"),
        (("serve", "--port", "8_765"), "--port", "8_765"),
    ],
)
def test_a_number_option_python_reads_but_json_does_not_write_is_refused(
    run, args: tuple[str, ...], option: str, text: str
) -> None:
    assert run("persona", "create", "rin").exit_code == 0
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert "digits 0-9" in result.output and json.dumps(text, ensure_ascii=False) in result.output


def test_number_options_read_json_numbers_and_full_width_digits(run) -> None:
    assert run("persona", "create", "rin").exit_code == 0
    for text in ("Ken likes tea.", "Ken plays chess.", "Ken lives in Osaka."):
        assert run("memory", "add", "-p", "rin", text, "--importance", "０．７").exit_code == 0
    listed = run("memory", "list", "-p", "rin", "--limit", "２", "--json")
    assert listed.exit_code == 0, listed.output
    assert len(json.loads(listed.output)) == 2
    wide = run("memory", "list", "-p", "rin", "--limit", "1e1", "--json")
    assert wide.exit_code == 0 and len(json.loads(wide.output)) == 3
    fraction = run("memory", "list", "-p", "rin", "--limit", "2.5")
    assert fraction.exit_code == 2 and "must be an integer" in fraction.output
