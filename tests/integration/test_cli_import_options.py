"""Session 33's walk-through: ``omoide import --from mem0 --user-name alex`` (meant:
``--user-id``) imported every Mem0 user's memories, the option ignored. An option of another
source is one line, exit status 1, refused before the data folder is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--from", "mem0", "--user-name", "alex"], "--user-name applies only to --from chat"),
        (["--from", "chat", "--user-id", "alex"], "--user-id applies only to --from mem0"),
        (["--assistant-name", "Rin"], "--assistant-name applies only to --from chat"),
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
