"""Session 42: what an import into a persona that already holds memories (``?merge=true``,
``omoide import --merge``) checked only within the file, through real HTTP, the CLI and a real
SQLite file.

- A memory of the file pointing (``superseded_by``, ``summary_ref``) at a memory the persona
  holds, whose own pointer names the file's memory back, closed a ring no memory of the file
  alone makes: a persona written before imports refused pointers naming no memory holds such
  a pointer, and the file brings the memory it names. Refused now (422, the CLI's one line)
  naming the keys and which of them the persona holds, nothing written.
- Tags in a memory's versions' images (``versions[i].before`` / ``.after``) were stored as
  given: 21 of them, one of 65 characters, a number, one holding a comma. They are checked as
  the memory's own tags are, by the API's ``check_tags``; a control character of a file
  written before they were refused is read as a space, as in the memory's tags.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer, exported_lines, import_lines, refused, wait_for_jobs

from omoide.cli import main
from omoide.service.validate import MAX_TAG_CHARS, MAX_TAGS, NON_BLANK_RULE

pytestmark = pytest.mark.sqlite_only  # a pointer of an older version's is set in the file

Records = list[dict[str, Any]]
FILE_KEY = "mem_from_the_file"  # the file's memory (its key held by no persona yet)


def _file(client: httpx.Client) -> Records:
    """An export of persona src (a session, a block, a state value and one memory), its
    memory's key one no persona holds."""
    records = exported_lines(client, "src")
    memory = next(r for r in records if r["type"] == "memory")
    memory["key"] = FILE_KEY
    return records


def _point(data: Path, key: str, pointer: str, at: str | None) -> None:
    """Set a stored memory's pointer as a version before session 29 could leave it (naming a
    key the persona lacks): the import then checked no pointer against the persona."""
    with sqlite3.connect(data / "omoide.db") as conn:
        conn.execute(f"UPDATE memories SET {pointer} = ? WHERE key = ?", (at, key))


def _held(client: httpx.Client) -> str:
    reply = client.post("/api/memories/dst", json={"content": "Ken walks to work."})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["memory"]["key"])


def _export(client: httpx.Client) -> list[str]:
    """The persona's export without its header (which says when it was written)."""
    return client.get("/api/export/dst").text.splitlines()[1:]


def _merge(client: httpx.Client, records: Records) -> httpx.Response:
    return client.post(
        "/api/import/dst",
        params={"merge": "true"},
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in records).encode(),
    )


@pytest.mark.parametrize("pointer", ["superseded_by", "summary_ref"])
def test_a_ring_through_a_held_memory_is_refused_naming_the_keys(
    server: LiveServer, data_dir: Path, pointer: str
) -> None:
    with server.client(server.create_persona("src")) as client:
        records = _file(client)
    memory = next(r for r in records if r["type"] == "memory")
    number = records.index(memory) + 1
    with server.client(server.create_persona("dst")) as client:
        held = _held(client)
        memory[pointer] = held
        _point(data_dir, held, pointer, FILE_KEY)
        wait_for_jobs(server.omoide, "dst")  # its evolution, which would change its export
        before = _export(client)
        error = refused(_merge(client, records), 422)
        assert _export(client) == before  # nothing written
        # the same file, the held memory's pointer cleared: the chain ends, and it merges
        _point(data_dir, held, pointer, None)
        merged = _merge(client, records)
        assert merged.status_code == 200, merged.text
        stored = client.get(f"/api/memories/dst/{FILE_KEY}")
    assert error["line"] == number and error["field"] == pointer, error
    assert error["key"] == FILE_KEY, error
    assert (
        f"line {number}: memory record: {pointer} runs in a cycle through a memory persona "
        f"'dst' holds: {FILE_KEY!r} → {held!r} → {FILE_KEY!r} (held: {held!r})"
    ) in error["message"], error
    assert error["message"].endswith("nothing was imported"), error
    assert stored.status_code == 200 and stored.json()[pointer] == held, stored.text


def test_the_cli_refuses_a_ring_through_a_held_memory_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``omoide import --merge`` into a folder: the same refusal, exit status 1, no trace."""
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(main, list(args), catch_exceptions=False)

    assert run("persona", "create", "src").exit_code == 0
    assert run("persona", "create", "dst").exit_code == 0
    assert run("memory", "add", "-p", "src", "Ken drinks green tea.").exit_code == 0
    added = run("memory", "add", "-p", "dst", "Ken walks to work.", "--json")
    held = json.loads(added.output)["memory"]["key"]
    exported = run("export", "-p", "src")
    records = [json.loads(line) for line in exported.output.splitlines()]
    memory = next(r for r in records if r["type"] == "memory")
    memory["key"] = FILE_KEY
    memory["superseded_by"] = held
    _point(data, held, "superseded_by", FILE_KEY)
    file = tmp_path / "src.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = run("import", "-p", "dst", "--merge", str(file))
    assert done.exit_code == 1, done.output
    said = done.output.strip().splitlines()[-1]  # after the progress bar's label
    assert said.startswith("Error: line "), done.output
    assert (
        f"superseded_by runs in a cycle through a memory persona 'dst' holds: {FILE_KEY!r} → "
        f"{held!r} → {FILE_KEY!r} (held: {held!r})"
    ) in said, done.output
    assert "Traceback" not in done.output
    listed = json.loads(run("memory", "list", "-p", "dst", "--json").output)
    assert [m["key"] for m in listed] == [held]  # nothing written


@pytest.mark.parametrize(
    "tags",
    [
        [f"t{i}" for i in range(MAX_TAGS + 1)],
        ["x" * (MAX_TAG_CHARS + 1)],
        ["tea, milk"],
    ],
)
@pytest.mark.parametrize("side", ["before", "after"])
def test_tags_of_a_version_image_are_checked_as_the_memorys(
    server: LiveServer, tags: list[Any], side: str
) -> None:
    """Refused in the words the same tags of the memory itself are refused with (the API's
    ``check_tags``), naming the version and its side."""
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
        memory = next(r for r in records if r["type"] == "memory")
        updated = client.patch(f"/api/memories/src/{memory['key']}", json={"tags": ["milk"]})
        assert updated.status_code == 200, updated.text
        records = [json.loads(line) for line in client.get("/api/export/src").text.splitlines()]
    memory = next(r for r in records if r["type"] == "memory")
    number = records.index(memory) + 1
    index = next(i for i, v in enumerate(memory["versions"]) if v[side] is not None)
    key = server.create_persona("dst")
    with server.client(key) as client:
        own = refused(import_lines(client, "dst", _with(records, memory, tags=tags)), 422)
        image = {**memory["versions"][index][side], "tags": tags}
        versions = [*memory["versions"]]
        versions[index] = {**versions[index], side: image}
        error = refused(import_lines(client, "dst", _with(records, memory, versions=versions)), 422)
        exported = client.get("/api/export/dst").text.splitlines()
    where = f"versions[{index}].{side}"
    assert own["field"] == "tags", own
    assert error["line"] == number and error["field"] == f"{where}.tags", error
    said = own["message"].removeprefix(f"line {number}: memory record: ")
    assert error["message"] == f"line {number}: memory record: {where}: {said}", (own, error)
    assert [json.loads(line)["type"] for line in exported] == ["header", "settings", "end"]


@pytest.mark.parametrize(
    ("tags", "said"),
    [
        ("tea", "tags must be a list of strings"),
        (["tea", 5], "every tag must be a string, got 5"),
        (["tea", " "], f'every tag {NON_BLANK_RULE}, got " "'),
    ],
)
def test_tags_of_a_version_image_that_are_no_texts_are_refused(
    server: LiveServer, tags: Any, said: str
) -> None:
    """(The memory's own are refused before, as a field of another type.)"""
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
    memory = next(r for r in records if r["type"] == "memory")
    versions = [{**memory["versions"][0], "after": {**memory["versions"][0]["after"]}}]
    versions[0]["after"]["tags"] = tags
    with server.client(server.create_persona("dst")) as client:
        error = refused(import_lines(client, "dst", _with(records, memory, versions=versions)), 422)
    assert error["field"] == "versions[0].after.tags", error
    assert f"memory record: versions[0].after: {said}" in error["message"], error


def _with(records: Records, memory: dict[str, Any], **fields: Any) -> Records:
    """``records`` with ``memory`` given ``fields``."""
    return [{**r, **fields} if r is memory else r for r in records]


def test_a_control_character_in_a_version_images_tag_is_read_as_a_space(
    server: LiveServer,
) -> None:
    """As in the memory's own tags (a file written before they were refused still imports),
    and counted in the report."""
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
    memory = next(r for r in records if r["type"] == "memory")
    memory["versions"][0]["after"]["tags"] = ["tea\u0007time", "\u0007"]
    with server.client(server.create_persona("dst")) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        stored = reply.json()["moved_keys"].get(memory["key"], memory["key"])
        history = client.get(f"/api/memories/dst/{stored}/history").json()
    assert reply.json()["controls_replaced"] == 2, reply.json()
    assert history["versions"][0]["after"]["tags"] == ["tea time"], history
