"""Session 33's walk-through: ``omoide import --from mem0 --user-name alex`` (meant:
``--user-id``) imported every Mem0 user's memories, the option ignored. An option of another
source is one line, exit status 1, refused before the data folder is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.service.event_input import MAX_SPEAKER_CHARS


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--from", "mem0", "--user-name", "alex"], "--user-name applies only to --from chat"),
        (["--from", "chat", "--user-id", "alex"], "--user-id applies only to --from mem0"),
        (["--assistant-name", "Rin"], "--assistant-name applies only to --from chat"),
        # accepted and ignored before: such an import always merges
        (
            ["--from", "mem0", "--merge"],
            "--merge applies only to an Omoide export (--from omoide); a --from mem0 import "
            "always merges (it adds to what the persona holds, skipping what it holds "
            "already): leave --merge out",
        ),
        (["--from", "chat", "--merge"], "--merge applies only to an Omoide export"),
        (["--from", "mcp-memory", "--merge"], "--merge applies only to an Omoide export"),
    ],
)
def test_an_import_option_of_another_source_is_refused_before_anything_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str], said: str
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "no-such-model")  # reaching the build would fail
    file = tmp_path / "memories.json"
    file.write_text('[{"memory": "Alex likes jazz", "user_id": "alex"}]', encoding="utf-8")
    done = CliRunner().invoke(main, ["import", "-p", "rin", *options, str(file)])
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: {said}")
    assert len(done.output.strip().splitlines()) == 1
    assert not data.exists()


@pytest.mark.parametrize("option", ["--user-name", "--assistant-name"])
def test_a_speaker_name_too_long_is_refused_naming_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """It was told as the first turn's ("conversation '…' turn 0.speaker must be at most 200
    characters"), a turn the user never wrote; HTTP names its user_name, as this its option."""
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "no-such-model")  # reaching the build would fail
    file = tmp_path / "chat.json"
    file.write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    name = "K" * (MAX_SPEAKER_CHARS + 1)
    done = CliRunner().invoke(
        main, ["import", "-p", "rin", "--from", "chat", option, name, str(file)]
    )
    assert done.exit_code == 1, done.output
    said = f"{option} must be at most {MAX_SPEAKER_CHARS} characters, got {len(name)}"
    assert done.output.strip() == f"Error: {said}"
    assert not data.exists()


@pytest.mark.parametrize("option", ["--user-name", "--assistant-name"])
@pytest.mark.parametrize("name", ["", "  ", "\u200b"], ids=["empty", "spaces", "invisible"])
def test_a_blank_speaker_name_is_refused_naming_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, name: str
) -> None:
    """Session 44: ``--user-name ""`` imported the turns as spoken by "user" (and
    ``--assistant-name ""`` by the persona), the option dropped without a word; a blank one
    was refused as the first turn's speaker. Both are one line naming the option, exit status
    1, before the data folder is opened (with any --from: "" was "not given" there too)."""
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "no-such-model")  # reaching the build would fail
    file = tmp_path / "chat.json"
    file.write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    for source in ("chat", "mem0"):
        done = CliRunner().invoke(
            main, ["import", "-p", "rin", "--from", source, option, name, str(file)]
        )
        assert done.exit_code == 1, done.output
        assert done.output.startswith(f"Error: {option} must not be empty"), done.output
        assert len(done.output.strip().splitlines()) == 1
        assert not data.exists()
