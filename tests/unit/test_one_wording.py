"""One wording for the same thing in every message (session 47):

- a value of the wrong type where a string is expected "must be a string", never "must be
  text" (an import's record check and the Mem0 and MCP-memory readers said that; HTTP's, MCP's
  and the services' checks said "must be a string");
- a value echoed cut at one limit, :data:`~omoide.engine.errors.ECHO_CHARS` (80), by one helper,
  ``quoted`` (the schema checks cut at 60 through ``short_json``, an import's field check at 60,
  an observation at 40, a tag at 22, a Content-Encoding at 40);
- a count with its thousands separated (``how_many``: "12345 memories" before), and the log's
  counts said with it, never "session(s)";
- a path named in single quotes with its controls escaped (``path_named``), a setting's value
  as JSON quotes it: never Python's repr (``check_listen_address`` and the SQLite store's
  messages used it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omoide.api.http.server import check_listen_address
from omoide.config.persona_values import validate_setting_patch
from omoide.engine.counts import how_many
from omoide.engine.errors import ECHO_CHARS, path_named, quoted
from omoide.engine.peer_formats import PeerFormatError, parse_mcp_memory, parse_mem0
from omoide.engine.transfer_check import record_problem
from omoide.errors import InvalidInput
from omoide.model import NAME_RULE, check_persona_name

SRC = Path(__file__).resolve().parents[2] / "src" / "omoide"
_LINK = {"a": "k1", "b": "k2", "link_type": "SEMANTIC", "weight": 0.5, "co_activation_count": 1}


def _sources() -> list[tuple[Path, str]]:
    return [(path, path.read_text(encoding="utf-8")) for path in sorted(SRC.rglob("*.py"))]


def test_a_value_not_a_string_is_said_must_be_a_string_everywhere() -> None:
    with pytest.raises(PeerFormatError, match=r"^memory 0: 'memory' must be a string \(got 5\)$"):
        parse_mem0([{"memory": 5}])
    with pytest.raises(PeerFormatError, match=r"'categories' must be a list of strings; "):
        parse_mem0([{"memory": "x", "categories": ["a", 5]}])
    entity = {"type": "entity", "name": "Mika", "entityType": "person", "observations": ["a", 5]}
    with pytest.raises(PeerFormatError, match=r"observations\[1\] must be a string, got 5$"):
        parse_mcp_memory([entity])
    link = {**_LINK, "a": 5}
    assert record_problem("link", link) == "a must be a string (got 5)"
    link = {**_LINK, "weight": "heavy"}
    assert "must be a number" in str(record_problem("link", link))
    said = [path.name for path, text in _sources() if "must be text" in text]
    assert said == []


def test_a_value_is_echoed_cut_at_one_limit_by_every_check() -> None:
    long = "x" * 500
    assert len(quoted(long)) == ECHO_CHARS == 80
    with pytest.raises(InvalidInput) as refused:
        validate_setting_patch({"timezone": 5})  # a setting's own type check
    assert refused.value.message.endswith("got 5")
    link = {**_LINK, "weight": long}
    assert record_problem("link", link) == f"weight must be a number (got {quoted(long)})"  # 60
    assert quoted(long).endswith("x…")
    # nothing cuts a value at a limit of its own any more
    own_limits = re.compile(r"\bquoted\([^()]*(\([^()]*\))?[^()]*,\s*\d+\)|short_json")
    assert [path.name for path, text in _sources() if own_limits.search(text)] == []


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("x" * 300, id="long"),
        pytest.param("a\u202eb", id="bidi-control"),
        pytest.param('say "hi"', id="quotes"),
    ],
)
def test_a_refused_persona_name_is_echoed_by_quoted(name: str) -> None:
    """``check_persona_name`` quoted the name by hand, cut at 64 with its closing quote
    (session 47's review): now by ``quoted``, as every echo."""
    with pytest.raises(InvalidInput) as refused:
        check_persona_name(name)
    assert refused.value.message == f"invalid persona name {quoted(name)}: use {NAME_RULE}"


@pytest.mark.parametrize(
    ("count", "one", "said"),
    [
        (0, "memory", "0 memories"),
        (1, "memory", "1 memory"),
        (999, "turn", "999 turns"),
        (12345, "memory", "12,345 memories"),
        (1_000_000, "idle session", "1,000,000 idle sessions"),
    ],
)
def test_a_count_is_said_with_its_thousands_separated(count: int, one: str, said: str) -> None:
    assert how_many(count, one) == said


def test_no_log_line_says_a_plural_in_brackets() -> None:
    """ "ended %d idle session(s)", "%d key(s)": every count goes through how_many."""
    bracketed = re.compile(r"""["'][^"'\n]*%[ds] [a-z ]+\(s\)""")
    assert [path.name for path, text in _sources() if bracketed.search(text)] == []


def test_a_path_is_named_in_single_quotes_with_its_controls_escaped_never_cut() -> None:
    assert path_named(Path("/srv/omoide")) == "'/srv/omoide'"
    assert path_named(Path("/srv/it's\x85")) == "'/srv/it's\\u0085'"  # repr: "/srv/it's\x85"
    deep = Path("/") / ("d" * 300)
    assert path_named(deep) == f"'{deep}'"


def test_a_host_that_is_no_address_is_quoted_as_json_quotes_a_value() -> None:
    with pytest.raises(InvalidInput) as refused:
        check_listen_address("a\x85b", 0)  # no IDNA name: refused before any lookup
    assert refused.value.message.startswith('OMOIDE_HOST (--host) "a\\u0085b" is no address')
