"""An import file holding a memory under the very key another of its memories is moved to
(another persona of the folder holds that one's key, so it is stored under a key derived from
the persona and it). The two were one key: the first written, the second skipped as already
there (``skipped: 1``), its text lost without a word, merging or not. Now refused before
anything is written, naming both keys and lines. Real HTTP, both stores."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, refused

from omoide.engine.transfer_format import moved_key


def _post(client: httpx.Client, persona: str, records: list[dict[str, Any]], merge: bool) -> Any:
    return client.post(
        f"/api/import/{persona}",
        params={"merge": "true"} if merge else {},
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in records).encode(),
    )


def _memories(client: httpx.Client, persona: str) -> dict[str, str]:
    lines = map(json.loads, client.get(f"/api/export/{persona}").text.splitlines())
    return {r["key"]: r["content"] for r in lines if r["type"] == "memory"}


@pytest.mark.parametrize("merge", [False, True], ids=["plain", "merge"])
def test_a_memory_under_the_key_another_is_moved_to_is_refused(
    server: LiveServer, merge: bool
) -> None:
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")  # src holds its memory's key
    memory = next(r for r in records if r["type"] == "memory")
    at = records.index(memory)
    onto = moved_key("dst", memory["key"])
    bicycle = {**copy.deepcopy(memory), "key": onto, "content": "Ken owns a red bicycle."}
    bicycle["versions"] = []
    clash = [*records[: at + 1], bicycle, *records[at + 1 :]]
    clash[-1] = {**clash[-1], "records": clash[-1]["records"] + 1}
    with server.client(server.create_persona("dst")) as client:
        error = refused(_post(client, "dst", clash, merge), 422)
        assert (error["line"], error["field"], error["key"]) == (at + 2, "key", onto), error
        assert f"memory {memory['key']!r} (line {at + 1})" in error["message"], error
        assert "nothing was imported" in error["message"]
        assert _memories(client, "dst") == {}
        clash[at + 1] = {**bicycle, "key": "mem_0123456789abcdef"}  # its own key: both kept
        reply = _post(client, "dst", clash, merge)
        assert reply.status_code == 200, reply.text
        assert reply.json()["moved_keys"] == {memory["key"]: onto}
        assert _memories(client, "dst") == {
            onto: memory["content"],
            "mem_0123456789abcdef": "Ken owns a red bicycle.",
        }
