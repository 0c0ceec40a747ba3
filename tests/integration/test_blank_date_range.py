"""A blank ``date_range`` (spaces or invisible characters only) is refused on every interface
by the one rule of the search service (``check_filters``), naming the field: HTTP refused it
(its route checked), but MCP's memory_search and episode_search and ``omoide search
--date-range`` answered it as no filter, as if it had applied. The dashboard's search form reads
a box of spaces as an empty box (no filter), as a form does."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp_checks import in_process_tool_error

from omoide.cli import main
from omoide.errors import InvalidInput
from omoide.service.validate import NON_BLANK_RULE
from omoide.wiring import Omoide

BLANK = " \u200b\u3000"
REFUSED = f"date_range {NON_BLANK_RULE}; leave it out for no date filter"


@pytest.mark.parametrize("tool", ["memory_search", "episode_search"])
def test_mcp_searches_refuse_a_blank_date_range(app: Omoide, persona: str, tool: str) -> None:
    message = in_process_tool_error(app, persona, tool, query="tea", date_range=BLANK)
    assert REFUSED in message, message


def test_the_service_refuses_it_for_a_search_without_a_query_too(app: Omoide, persona: str) -> None:
    with pytest.raises(InvalidInput, match="date_range must not be empty or whitespace") as refused:
        app.search.build_filters(persona, date_range="   ")
    assert refused.value.fields == {"field": "date_range"}


@pytest.mark.sqlite_only
def test_omoide_search_refuses_a_blank_date_range(
    app: Omoide, persona: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data_dir))
    done = CliRunner().invoke(main, ["search", "-p", persona, "tea", "--date-range", "  "])
    assert done.exit_code == 2, done.output  # refused as the option is read (session 45)
    rule = REFUSED.removeprefix("date_range ")
    assert done.output.splitlines()[-1] == f"Error: Invalid value for '--date-range': {rule}"
    assert "Traceback" not in done.output
