"""docs/settings.md's process settings table is what ``Settings.from_env`` does: a row for every
field of :class:`Settings` and every ``OMOIDE_*`` variable ``config/process.py`` reads, the
default each field takes when its variable is unset, and each numeric range as its refusal
draws it (the value at an edge taken, one past it refused naming the variable)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from omoide.config import Settings
from omoide.config import process as process_module
from omoide.errors import InvalidInput

DOCS = Path(__file__).resolve().parents[2] / "docs" / "settings.md"
# | `OMOIDE_X` | `field` | default | allowed | meaning |
ROW = re.compile(
    r"^\| (?P<var>[^|]+) \| (?P<field>[^|]+) \| (?P<default>[^|]+) \| (?P<allowed>[^|]+) \|"
)


def process_rows() -> dict[str, dict[str, str]]:
    """The table's rows by field name (backquotes removed)."""
    text = DOCS.read_text(encoding="utf-8")
    table = text.split("## Process settings", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in table.splitlines():
        match = ROW.match(line)
        if match and not line.startswith("| variable") and not line.startswith("|---"):
            cells = {k: v.strip().replace("`", "") for k, v in match.groupdict().items()}
            rows[cells["field"]] = cells
    return rows


FIELDS = list(dataclasses.fields(Settings))


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f.name)
def test_every_settings_field_has_its_row_and_default(field: dataclasses.Field) -> None:
    row = process_rows().get(field.name)
    assert row is not None, f"docs/settings.md's process table lacks the field {field.name!r}"
    if field.name in ("persona_defaults", "llm"):
        return  # their own tables (below, and docs/llm.md)
    default = getattr(Settings.from_env({}), field.name)
    written = row["default"]
    if default is None:
        assert written == "unset", (field.name, written)
    elif isinstance(default, (int, float)) and not isinstance(default, bool):
        assert float(written) == default, (field.name, written, default)
    else:
        assert written == str(default), (field.name, written, default)


def test_every_variable_the_process_settings_read_is_in_the_table() -> None:
    source = Path(process_module.__file__).read_text(encoding="utf-8")
    read = set(re.findall(r'"(OMOIDE_[A-Z_]+)"', source)) - {"OMOIDE_SEARCH_COMPANION_CACHE"}
    table = DOCS.read_text(encoding="utf-8").split("## Process settings", 1)[1]
    table = table.split("\n## ", 1)[0]
    listed = set(re.findall(r"`(OMOIDE_[A-Z_]+)`", table))
    llm = {v for v in read if v.startswith("OMOIDE_LLM_")}
    assert "`OMOIDE_LLM_PROVIDER`, `_BASE_URL`, `_API_KEY`, `_MODEL`, `_TIMEOUT`" in table
    assert sorted(read - llm - listed) == []


def _ranges() -> list[tuple[str, str, str]]:
    """(variable, field, allowed) for each row whose range is a plain number range."""
    out = []
    for field, row in process_rows().items():
        if re.fullmatch(
            r"(at least|above) [\d.]+(, at most [\d.]+)?|[\d.]+ – [\d.]+", row["allowed"]
        ):
            out.append((row["var"], field, row["allowed"]))
    return out


def _edges(allowed: str, integer: bool) -> tuple[list[str], list[str]]:
    """Values the range takes and values it refuses, at its edges."""
    step = "1" if integer else "0.5"
    take, refuse = [], []
    if m := re.fullmatch(r"([\d.]+) – ([\d.]+)", allowed):
        low, high = m.groups()
        take += [low, high]
        refuse += [str(float(low) - float(step)) if not integer else str(int(low) - 1)]
        refuse += [str(int(high) + 1) if integer else str(float(high) + 0.5)]
        return take, refuse
    m = re.fullmatch(r"(at least|above) ([\d.]+)(?:, at most ([\d.]+))?", allowed)
    assert m is not None
    kind, low, high = m.groups()
    below = str(int(low) - 1) if integer else str(float(low) - 0.5)
    if kind == "at least":
        take.append(low)
        refuse.append(below)
    else:
        take.append(str(int(low) + 1) if integer else str(float(low) + 0.5))
        refuse += [low, below]
    if high:
        take.append(high)
        refuse.append(str(float(high) + 0.5))
    return take, refuse


@pytest.mark.parametrize(("variable", "field", "allowed"), _ranges(), ids=lambda v: str(v))
def test_each_numeric_range_is_the_one_refused(variable: str, field: str, allowed: str) -> None:
    integer = isinstance(getattr(Settings.from_env({}), field), int)
    take, refuse = _edges(allowed, integer)
    for value in take:
        assert float(getattr(Settings.from_env({variable: value}), field)) == float(value)
    for value in refuse:  # naming the variable and the value given
        with pytest.raises(InvalidInput, match=rf"^{variable}\b.*, got {re.escape(value)}$"):
            Settings.from_env({variable: value})


def test_the_ranges_probed_are_the_documented_ones() -> None:
    """The probe above covers every numeric row (a row written otherwise would go unchecked)."""
    probed = {variable for variable, _, _ in _ranges()}
    assert probed >= {
        "OMOIDE_PORT",
        "OMOIDE_EMBED_THREADS",
        "OMOIDE_EMBED_BATCH",
        "OMOIDE_EMBED_TIMEOUT",
        "OMOIDE_WORKERS",
        "OMOIDE_JOB_LEASE_SECONDS",
        "OMOIDE_PG_ANN_ROWS",
        "OMOIDE_PG_POOL_SIZE",
        "OMOIDE_PG_POOL_WAIT",
        "OMOIDE_VECTOR_CACHE",
        "OMOIDE_MAX_BODY_BYTES",
        "OMOIDE_MAX_IMPORT_BYTES",
        "OMOIDE_MCP_MAX_SESSIONS",
        "OMOIDE_MCP_SESSION_IDLE_MINUTES",
        "OMOIDE_CHAT_SUMMARY_COOLDOWN",
    }
