"""`omoide import --from mcp-memory` run as a user runs it (a subprocess on a data folder): an
entity without observations becomes a sentence with the right indefinite article."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _omoide(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "omoide.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_an_entity_without_observations_reads_with_its_article(tmp_path: Path) -> None:
    records = [
        {
            "type": "entity",
            "name": "Fjordline_Kayak_Club",
            "entityType": "organization",
            "observations": [],
        },
        {"type": "entity", "name": "Midsummer_Regatta", "entityType": "event", "observations": []},
        {"type": "entity", "name": "Sunniva_Haugen", "entityType": "person", "observations": []},
        {"type": "entity", "name": "Oslo_Campus", "entityType": "university", "observations": []},
    ]
    path = tmp_path / "memory.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    data = tmp_path / "data"
    done = _omoide(data, "import", "-p", "sunniva", "--from", "mcp-memory", str(path))
    assert done.returncode == 0, done.stderr
    listed = _omoide(data, "memory", "list", "-p", "sunniva")
    assert listed.returncode == 0, listed.stderr
    assert "Fjordline_Kayak_Club is an organization" in listed.stdout
    assert "Midsummer_Regatta is an event" in listed.stdout
    assert "Sunniva_Haugen is a person" in listed.stdout
    assert "Oslo_Campus is a university" in listed.stdout
