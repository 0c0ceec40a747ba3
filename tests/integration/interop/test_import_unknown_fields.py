"""A record of an Omoide export file holding a field the format does not (a misspelt
``"importnace"``, a field of another tool) is refused naming the line, the record and the
field, before anything is written, as the API refuses a body's unknown field (docs/import.md:
"every record must hold what the API would accept"). Before: the field was ignored without a
word, and the record stored without what it meant to say. What an export writes still imports
(the round trip: tests/integration/interop/test_transfer.py)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from interop_seed import seed
from omoide_testing import LiveServer

from omoide.clock import FixedClock
from omoide.errors import InvalidInput
from omoide.wiring import Omoide

NDJSON = {"Content-Type": "application/x-ndjson"}


def _with(lines: list[str], kind: str, change: Callable[[dict], None]) -> tuple[list[str], int]:
    """The file with ``change`` made to its first record of ``kind``; that record's line."""
    out = list(lines)
    for i, line in enumerate(out):
        record = json.loads(line)
        if record["type"] == kind:
            change(record)
            out[i] = json.dumps(record, ensure_ascii=False)
            return out, i + 1
    raise AssertionError(f"no {kind} record in the file")


def _added(name: str) -> Callable[[dict], None]:
    return lambda record: record.update({name: 1})


def test_every_record_type_refuses_a_field_it_does_not_hold(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    seed(app, persona, clock)
    lines = list(app.transfer.export(persona, with_vectors=True))
    kinds = [json.loads(line)["type"] for line in lines]
    assert {"header", "settings", "block", "state", "session", "event", "episode"} <= set(kinds)
    assert {"memory", "link", "end"} <= set(kinds)
    app.auth.create_persona("copy")
    for kind in dict.fromkeys(kinds):
        changed, line = _with(lines, kind, _added("importnace"))
        with pytest.raises(InvalidInput) as refused:
            app.transfer.import_lines("copy", lambda changed=changed: changed)
        message = refused.value.message
        assert message.startswith(
            f"line {line}: {kind} record: unknown field 'importnace' (unknown fields are "
            f"refused, not ignored); a {kind} record holds "
        ), message
        assert refused.value.fields["line"] == line
    assert app.memories.stats("copy").active == 0  # nothing written
    assert list(app.transfer.export("copy"))[1:-1] == ['{"type": "settings", "overrides": {}}\n']


def test_a_memory_s_versions_and_sources_refuse_a_field_they_do_not_hold(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    seed(app, persona, clock)
    lines = list(app.transfer.export(persona))
    app.auth.create_persona("copy")

    for entries in ("versions", "sources"):
        holding = [
            i for i, line in enumerate(lines) if json.loads(line).get(entries) not in (None, [])
        ]
        assert holding, entries
        changed = list(lines)
        record = json.loads(changed[holding[0]])
        record[entries][0]["why"] = "typo"
        changed[holding[0]] = json.dumps(record, ensure_ascii=False)
        with pytest.raises(InvalidInput) as refused:
            app.transfer.import_lines("copy", lambda changed=changed: changed)
        assert refused.value.message.startswith(
            f"line {holding[0] + 1}: memory record: {entries}[0]: unknown field 'why' "
        ), refused.value.message
    assert app.memories.stats("copy").active == 0


def test_http_import_of_a_record_with_an_unknown_field_is_422_naming_it(
    server: LiveServer, app: Omoide, clock: FixedClock
) -> None:
    key = server.create_persona("rin")
    seed(app, "rin", clock)
    with server.client(key) as c:
        exported = c.get("/api/export/rin").text.splitlines()
    changed, line = _with(exported, "memory", _added("contnet"))
    copy = server.create_persona("copy")
    with server.client(copy) as c:
        refused = c.post("/api/import/copy", content="\n".join(changed) + "\n", headers=NDJSON)
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "invalid_input" and error["line"] == line
        assert error["message"].startswith(
            f"line {line}: memory record: unknown field 'contnet' (unknown fields are refused"
        ), error["message"]
        assert c.get("/api/memories/copy").json()["memories"] == []
        done = c.post("/api/import/copy", content="\n".join(exported) + "\n", headers=NDJSON)
        assert done.status_code == 200, done.text  # the file as exported imports
