"""An ``OMOIDE_*`` variable Omoide does not read is named in one WARNING at start, with the
known name it is close to, or what became of a retired one; the command still runs.

Before: a typo (``OMOIDE_PROT=9000``) or the retired ``OMOIDE_MEMORY_PRELOAD_COUNT`` was
ignored without a word, so the server ran on its defaults while the user believed otherwise."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from omoide.config.environ import PROCESS_VARIABLES, RETIRED_VARIABLES, unknown_variables

OMOIDE = Path(sys.executable).parent / "omoide"
SRC = Path(__file__).resolve().parents[2] / "src" / "omoide"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "settings.md"
VARIABLE = re.compile(r"OMOIDE_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_*])")  # not OMOIDE_LLM_*


def _run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMOIDE_")}
    env |= {"OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(tmp_path / "data"), **extra}
    return subprocess.run(
        [str(OMOIDE), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_a_typo_and_a_retired_name_are_one_warning_and_the_command_runs(
    tmp_path: Path,
) -> None:
    done = _run(
        tmp_path,
        "persona",
        "create",
        "rin",
        OMOIDE_PROT="9000",
        OMOIDE_MEMORY_PRELOAD_COUNT="5",
        OMOIDE_CONTEXT_BUDGET_TOKEN="3000",
        OMOIDE_LOG_FORMAT="json",
    )
    assert done.returncode == 0, done.stderr
    warnings = [json.loads(line) for line in done.stderr.splitlines() if '"warning"' in line]
    assert [w["message"] for w in warnings] == [
        "ignored environment: "
        "OMOIDE_CONTEXT_BUDGET_TOKEN is not a variable Omoide reads (did you mean "
        "OMOIDE_CONTEXT_BUDGET_TOKENS?); "
        "OMOIDE_MEMORY_PRELOAD_COUNT is retired (the setting memory_preload_count is gone: "
        "default search ranks notes and conversation excerpts together; the search plan "
        "episode_fallback keeps its rule); "
        "OMOIDE_PROT is not a variable Omoide reads (did you mean OMOIDE_PORT?)"
    ]


def test_known_variables_say_nothing(tmp_path: Path) -> None:
    done = _run(tmp_path, "persona", "list", OMOIDE_WORKERS="0", OMOIDE_KEEP_RECENT="4")
    assert done.returncode == 0, done.stderr
    assert "ignored environment" not in done.stderr


def test_a_name_close_to_none_gets_no_guess() -> None:
    assert unknown_variables({"OMOIDE_ZZZ": "1", "HOME": "/root"}) == [
        "OMOIDE_ZZZ is not a variable Omoide reads"
    ]


def test_every_variable_the_code_and_the_docs_name_is_known() -> None:
    """A variable added to the code or to docs/settings.md's tables but not to
    PROCESS_VARIABLES would be warned about as unknown."""
    named = set()
    for path in SRC.rglob("*.py"):
        if path.name != "environ.py":  # its docstring names a typo
            named |= set(VARIABLE.findall(path.read_text(encoding="utf-8")))
    rows = [line for line in DOCS.read_text(encoding="utf-8").splitlines() if line[:2] == "| "]
    named |= set(VARIABLE.findall("\n".join(rows)))  # its tables (its text shows a typo)
    named.discard("OMOIDE_LLM")  # the start of a message matched (embed/openai_http.py)
    assert not unknown_variables(dict.fromkeys(named - set(RETIRED_VARIABLES), ""))
    assert named >= PROCESS_VARIABLES
