"""Session 42: a merge import (``?merge=true``, ``omoide import --merge``) stored a pointer
ring that no memory of the file made, through its duplicates, over real HTTP, the CLI and a
real store.

The file holds A (current, ``summary_ref`` X), X (closed: ``superseded_by`` and
``summary_ref`` B) and B (current, A's text). No ring in the file; but the merge found B a
duplicate of A, did not write it and sent X's pointers to A: A → X → A. Now a duplicate whose
merge would close a ring is written as its own memory, and the reply's ``duplicates_kept``
(the CLI's summary line) names it and the memory it duplicates; without the ring it is merged
as before.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer, exported_lines, import_lines

from omoide.cli import main

Records = list[dict[str, Any]]
POINTERS = ("superseded_by", "summary_ref")


def _with_ring_through_a_duplicate(records: Records, *, ring: bool = True) -> Records:
    """``records`` (an export) with its memory replaced by A, X and B; A names X (``ring``)
    or nothing."""
    memory = next(r for r in records if r["type"] == "memory")
    at = records.index(memory)
    a = {**copy.deepcopy(memory), "key": "mem_a", "versions": []}
    a["summary_ref"] = "mem_x" if ring else None
    x = {**copy.deepcopy(memory), "key": "mem_x", "versions": [], "content": "Ken drank coffee."}
    x.update(superseded_by="mem_b", summary_ref="mem_b")
    b = {**copy.deepcopy(memory), "key": "mem_b", "versions": []}
    out = [*records[:at], a, x, b, *records[at + 1 :]]
    out[-1] = {**out[-1], "records": out[-1]["records"] + 2}
    return out


def _merge(client: httpx.Client, persona: str, records: Records) -> dict[str, Any]:
    reply = client.post(
        f"/api/import/{persona}",
        params={"merge": "true"},
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in records).encode(),
    )
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def _chains(memories: list[dict[str, Any]]) -> None:
    """Every chain of stored pointers ends (at a memory naming none)."""
    by_key = {m["key"]: m for m in memories}
    for name in POINTERS:
        for start in by_key:
            seen, at = [start], by_key[start][name]
            while at is not None:
                assert at not in seen, f"{name} runs in a ring: {[*seen, at]}"
                seen.append(at)
                at = by_key[at][name]


def _stored(client: httpx.Client, persona: str) -> list[dict[str, Any]]:
    exported = client.get(f"/api/export/{persona}").text.splitlines()
    return [r for r in map(json.loads, exported) if r["type"] == "memory"]


def test_a_duplicate_whose_merge_would_close_a_ring_is_written_as_its_own(
    server: LiveServer,
) -> None:
    with server.client(server.create_persona("src")) as client:
        records = _with_ring_through_a_duplicate(exported_lines(client, "src"))
    with server.client(server.create_persona("dst")) as client:
        report = _merge(client, "dst", records)
        stored = {m["key"]: m for m in _stored(client, "dst")}
        # what it stored is a file an import takes back (its own ring check passes)
        again = client.get("/api/export/dst").text.splitlines()
    assert report["memories"] == 3 and report["duplicates"] == 0, report
    assert report["duplicates_kept"] == {"mem_b": "mem_a"}, report
    assert set(stored) == {"mem_a", "mem_x", "mem_b"}, stored
    assert stored["mem_b"]["content"] == stored["mem_a"]["content"]
    assert stored["mem_a"]["summary_ref"] == "mem_x"
    assert stored["mem_x"]["superseded_by"] == stored["mem_x"]["summary_ref"] == "mem_b"
    _chains(list(stored.values()))
    with server.client(server.create_persona("copy")) as client:
        back = import_lines(client, "copy", [json.loads(line) for line in again])
        assert back.status_code == 200, back.text


def test_without_the_ring_the_duplicate_is_merged_as_before(server: LiveServer) -> None:
    """A names nothing: B is A's duplicate, not written, X's pointers name A."""
    with server.client(server.create_persona("src")) as client:
        records = _with_ring_through_a_duplicate(exported_lines(client, "src"), ring=False)
    with server.client(server.create_persona("dst")) as client:
        report = _merge(client, "dst", records)
        stored = {m["key"]: m for m in _stored(client, "dst")}
    assert report["memories"] == 2 and report["duplicates"] == 1, report
    assert report["duplicates_kept"] == {}, report
    assert set(stored) == {"mem_a", "mem_x"}, stored
    assert stored["mem_x"]["superseded_by"] == stored["mem_x"]["summary_ref"] == "mem_a"
    _chains(list(stored.values()))


def test_a_ring_through_a_duplicate_found_in_an_earlier_batch(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of one memory: A is stored when B, found its duplicate in the store (not among
    the batch's), is kept as its own."""
    monkeypatch.setattr(server.omoide.transfer, "batch", 1)
    with server.client(server.create_persona("src")) as client:
        records = _with_ring_through_a_duplicate(exported_lines(client, "src"))
    with server.client(server.create_persona("dst")) as client:
        report = _merge(client, "dst", records)
        stored = _stored(client, "dst")
    assert report["duplicates_kept"] == {"mem_b": "mem_a"}, report
    assert {m["key"] for m in stored} == {"mem_a", "mem_x", "mem_b"}, stored
    _chains(stored)


def test_the_cli_says_how_many_duplicates_it_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``omoide import --merge`` into a folder: the summary line counts them; --json names
    them."""
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    runner = CliRunner()

    def run(*args: str) -> Any:
        done = runner.invoke(main, list(args), catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return done

    run("persona", "create", "src")
    run("persona", "create", "dst")
    run("persona", "create", "json")
    run("memory", "add", "-p", "src", "Ken drinks green tea.")
    exported = run("export", "-p", "src").output.splitlines()
    records = _with_ring_through_a_duplicate([json.loads(line) for line in exported])
    file = tmp_path / "src.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    said = run("import", "-p", "dst", "--merge", str(file)).output.strip().splitlines()[-1]
    assert said.startswith("imported into dst: 3 memories"), said
    assert (
        "0 duplicates skipped; 1 duplicate written as their own memories, as pointers sent to "
        "the memories they duplicate would run in a ring"
    ) in said, said
    # into another persona of the folder, whose keys the import moves: named as stored
    report = json.loads(run("import", "-p", "json", "--merge", "--json", str(file)).stdout)
    moved = report["moved_keys"]
    assert report["duplicates_kept"] == {moved["mem_b"]: moved["mem_a"]}, report
    listed = json.loads(run("memory", "list", "-p", "dst", "--json").output)
    assert sorted(m["key"] for m in listed) == ["mem_a", "mem_b", "mem_x"]
