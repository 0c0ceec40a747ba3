"""The reference lists of the README and docs/ name what the code has, no more, no less: every
process variable ``config/process.py`` reads (with its documented default), every ``omoide``
command with each of its options, and every MCP tool. A new variable, command, option or tool
fails here until its row is written; a row for one that is gone fails too; so do the values of
docs/api.md's closed enumerations. (Per-persona settings: test_settings_docs.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from mcp_checks import ALL_TOOLS

from omoide.api.http.schemas.context import BlockWrite
from omoide.api.http.schemas.sessions import EventIn
from omoide.cli import main
from omoide.config import Settings
from omoide.config import process as process_config
from omoide.config.process import log_format_from_env
from omoide.model.memory import MemoryKind, SearchMode

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
LLM_DOC = ROOT / "docs" / "llm.md"
MCP_DOC = ROOT / "docs" / "mcp.md"
API_DOC = ROOT / "docs" / "api.md"

# Read only to refuse it, naming its successor (the README's OMOIDE_VECTOR_CACHE row says so).
RETIRED = {"OMOIDE_SEARCH_COMPANION_CACHE"}
# A default that is no value of the variable: the file the server writes when it is unset.
NOT_A_VALUE = {"OMOIDE_DASHBOARD_SECRET"}


def section(path: Path, heading: str) -> list[str]:
    """The lines of one ``## heading`` section."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"## {heading}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def cells(line: str) -> list[str]:
    """A table row's cells (a ``\\|`` inside a cell is a ``|`` of its text)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def documented_variables() -> dict[str, str]:
    """Each variable of the README's and docs/llm.md's tables, with its default cell."""
    rows = {}
    tables = [*section(README, "Configuration"), *section(LLM_DOC, "Environment variables")]
    for line in tables:
        if not line.startswith("| `OMOIDE_"):
            continue
        names, default = cells(line)[:2]
        variables = re.findall(r"`(OMOIDE_[A-Z0-9_*]+)`", names)
        defaults = default.split(" / ") if len(variables) > 1 else [default]
        for i, name in enumerate(variables):
            rows[name] = defaults[i] if len(defaults) == len(variables) else defaults[0]
    return rows


def read_variables() -> set[str]:
    source = Path(process_config.__file__).read_text(encoding="utf-8")
    return set(re.findall(r'"(OMOIDE_[A-Z0-9_]*[A-Z0-9])"', source)) - RETIRED


def test_every_process_variable_read_is_documented() -> None:
    documented = documented_variables()
    missing = sorted(name for name in read_variables() if name not in documented)
    assert missing == [], f"add rows to the README's Configuration table for {missing}"


def test_no_documented_process_variable_is_unread() -> None:
    read = read_variables()
    listed = [n for n in documented_variables() if n != "OMOIDE_LLM_*" and n not in read]
    assert listed == []


def plain_default(cell: str) -> str | None:
    """The default a cell gives as one value in backticks (else None: unset, generated…)."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    return match.group(1) if match else None


@pytest.mark.parametrize(
    "name",
    sorted(
        name
        for name, cell in documented_variables().items()
        if plain_default(cell) is not None and name not in NOT_A_VALUE
    ),
)
def test_a_documented_default_is_the_default(name: str) -> None:
    """Setting a variable to its documented default changes nothing."""
    value = plain_default(documented_variables()[name])
    assert value is not None
    if name == "OMOIDE_LOG_FORMAT":
        assert log_format_from_env({name: value}) == log_format_from_env({})
        return
    assert Settings.from_env({name: value}) == Settings.from_env({}), (
        f"{name}={value} is not the default the docs say it is"
    )


def leaf_commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += leaf_commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


def command_rows() -> dict[tuple[str, ...], str]:
    """Each command the README's command table names, with all its rows' text joined: a row's
    backticked ``omoide a b\\|c …`` (or ``a b`` after a ``/``) names ``a b`` and ``a c``."""
    named: dict[tuple[str, ...], str] = {}
    for line in section(README, "Command line"):
        if not line.startswith("| `omoide "):
            continue
        for spelled in re.findall(r"`([^`]+)`", cells(line)[0]):
            words = spelled.removeprefix("omoide ").split()
            path: list[list[str]] = []
            for word in words:
                if word.startswith(("-", "[")) or word.isupper() or word == "…":
                    break
                path.append(word.split("\\|"))
            for choice in _product(path):
                named[choice] = named.get(choice, "") + line
    return named


def _product(parts: list[list[str]]) -> list[tuple[str, ...]]:
    combos: list[tuple[str, ...]] = [()]
    for options in parts:
        combos = [(*combo, option) for combo in combos for option in options]
    return combos


COMMANDS = leaf_commands(main)
COMMON = {"--data", "--json", "--help"}  # the paragraph above the table says these


def test_every_command_is_in_the_readme_table() -> None:
    rows = command_rows()
    assert sorted(" ".join(c) for c in COMMANDS if c not in rows) == []
    assert sorted(" ".join(c) for c in rows if c not in COMMANDS) == []


def command_at(path: tuple[str, ...]) -> click.Command:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return command


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_option_of_a_command_is_in_its_rows(path: tuple[str, ...]) -> None:
    command = command_at(path)
    text = command_rows().get(path, "")
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        spellings = [*param.opts, *param.secondary_opts]
        if COMMON & set(spellings):
            continue
        assert any(re.search(rf"{re.escape(s)}\b", text) for s in spellings), (
            f"the README's row for omoide {' '.join(path)} does not mention {spellings[0]}"
        )


def test_the_mcp_doc_lists_every_tool() -> None:
    rows = {
        match.group(1)
        for line in section(MCP_DOC, "The tools")
        if (match := re.match(r"\| `([a-z_]+)` \|", line))
    }
    assert rows == ALL_TOOLS
    intro = MCP_DOC.read_text(encoding="utf-8")
    assert f"same {len(ALL_TOOLS)} tools" in intro
    assert f"the {len(ALL_TOOLS)}-tool MCP interface" in README.read_text(encoding="utf-8")


def test_an_option_read_from_a_variable_names_it_in_its_help() -> None:
    """``serve --host`` fell back to OMOIDE_HOST while its help said only "(127.0.0.1)"."""
    unnamed = []
    for path in COMMANDS:
        for param in command_at(path).params:
            named = isinstance(param.envvar, str) and f"${param.envvar}" in (param.help or "")
            if isinstance(param, click.Option) and param.envvar and not named:
                unnamed.append(f"omoide {' '.join(path)} {param.opts[0]}")
    assert unnamed == []


def test_no_help_text_shows_source_markup() -> None:
    """A docstring's reST ``double backticks`` printed as they are (``jobs status``'s help)."""
    marked = [
        " ".join(path) or "omoide"
        for path in COMMANDS
        if "``"
        in (command_at(path).help or "")
        + " ".join(getattr(param, "help", None) or "" for param in command_at(path).params)
    ]
    assert marked == []


def enum_of(model: type[EventIn] | type[BlockWrite], field: str) -> list[str]:
    schema = model.model_json_schema()["properties"][field]
    choices = [schema, *schema.get("anyOf", [])]
    return next(c["enum"] for c in choices if "enum" in c)


@pytest.mark.parametrize(
    ("row", "values"),
    [
        ("memory `kind`", [k.value for k in MemoryKind]),
        ("search `mode`", [m.value for m in SearchMode]),
        ("event `role`", enum_of(EventIn, "role")),
        ("block `block_type`", enum_of(BlockWrite, "block_type")),
    ],
)
def test_the_closed_enumerations_are_the_accepted_values(row: str, values: list[str]) -> None:
    line = next(line for line in section(API_DOC, "Closed enumerations") if f"| {row} |" in line)
    assert re.findall(r"`([a-z_]+)`", cells(line)[1]) == values
