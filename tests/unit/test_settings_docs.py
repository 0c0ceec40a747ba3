"""docs/settings.md documents every per-persona setting exactly as config.PERSONA_SETTINGS
declares it: a missing, stale or outdated row fails here, and the message is the row to paste."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omoide.config import PERSONA_SETTINGS, Setting

DOCS = Path(__file__).resolve().parents[2] / "docs" / "settings.md"
ROW = re.compile(r"^\| `([a-z0-9_]+)` \|")


def allowed(setting: Setting) -> str:
    if setting.choices:
        return ", ".join(f"`{c}`" for c in setting.choices)
    if setting.type is bool:
        return "`true`, `false`"
    if setting.minimum is not None or setting.maximum is not None:
        # written out, as a refusal says it ("must be ≤ 2000000"), never "2e+06"
        low = "" if setting.minimum is None else f"{setting.minimum:.15g}"
        high = "" if setting.maximum is None else f"{setting.maximum:.15g}"
        return f"{low} – {high}"
    return "IANA zone name" if setting.name == "timezone" else "any"


def default(setting: Setting) -> str:
    if setting.type is bool:
        return "`true`" if setting.default else "`false`"
    return f"`{setting.default}`"


def expected_row(setting: Setting) -> str:
    """The documentation row of one setting (the table's columns, in order)."""
    return (
        f"| `{setting.name}` | {setting.type.__name__} | {default(setting)} | "
        f"{allowed(setting)} | `OMOIDE_{setting.name.upper()}` | {setting.help} |"
    )


def documented_rows() -> dict[str, str]:
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows[match.group(1)] = line.strip()
    return rows


@pytest.mark.parametrize("setting", PERSONA_SETTINGS, ids=lambda s: s.name)
def test_settings_docs_document_every_setting_as_declared(setting: Setting) -> None:
    row = documented_rows().get(setting.name)
    assert row is not None, f"docs/settings.md lacks {setting.name!r}; add:\n" + expected_row(
        setting
    )
    assert row == expected_row(setting), f"outdated row; replace with:\n{expected_row(setting)}"


def test_settings_docs_list_no_unknown_setting() -> None:
    declared = [s.name for s in PERSONA_SETTINGS]
    assert [name for name in documented_rows() if name not in declared] == []


def rewrite_table() -> None:
    """Replace the table's rows in docs/settings.md with the declared ones (run this file)."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if ROW.match(line))
    last = max(i for i, line in enumerate(lines) if ROW.match(line))
    lines[first : last + 1] = [expected_row(s) for s in PERSONA_SETTINGS]
    DOCS.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    rewrite_table()
