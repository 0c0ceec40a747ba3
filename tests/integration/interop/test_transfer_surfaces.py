"""Export/import through the CLI and through real HTTP."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import click
import httpx
import pytest
from click.testing import CliRunner
from interop_seed import seed
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app
from omoide.cli import main
from omoide.clock import FixedClock
from omoide.wiring import Omoide


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    runner = CliRunner()

    def invoke(*args: str) -> click.testing.Result:
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


NDJSON = {"Content-Type": "application/x-ndjson"}


def without_time(text: str) -> list[str]:
    lines = text.splitlines()
    head = json.loads(lines[0])
    head.pop("exported_at")
    return [json.dumps(head), *lines[1:]]


def test_cli_export_import_round_trip(run, tmp_path: Path) -> None:
    one, two = str(tmp_path / "one"), str(tmp_path / "two")
    assert run("persona", "create", "rin", "--data", one).exit_code == 0
    for text in ("The user keeps bees on the roof", "The user's favourite tea is hojicha"):
        assert (
            run("memory", "add", "-p", "rin", text, "--tag", "home", "--data", one).exit_code == 0
        )
    first = tmp_path / "rin.jsonl"
    result = run("export", "-p", "rin", "--out", str(first), "--data", one)
    assert result.exit_code == 0, result.output
    result = run("import", "-p", "rin", str(first), "--data", two, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout[result.stdout.index("{") :])
    assert (report["memories"], report["embedded"]) == (2, 2)
    assert "embedding" in result.stderr  # the progress bar
    second = tmp_path / "again.jsonl"
    assert run("export", "-p", "rin", "--out", str(second), "--data", two).exit_code == 0
    assert without_time(second.read_text()) == without_time(first.read_text())
    # a re-run changes nothing; a persona with other data refuses without --merge
    again = run("import", "-p", "rin", str(first), "--data", two, "--json")
    assert json.loads(again.stdout[again.stdout.index("{") :])["memories"] == 0
    assert (
        run(
            "memory", "add", "-p", "rin", "Something else entirely about rockets", "--data", two
        ).exit_code
        == 0
    )
    other = tmp_path / "other.jsonl"
    assert run("persona", "create", "ken", "--data", one).exit_code == 0
    assert run("memory", "add", "-p", "ken", "Ken likes trains", "--data", one).exit_code == 0
    assert run("export", "-p", "ken", "--out", str(other), "--data", one).exit_code == 0
    refused = CliRunner().invoke(main, ["import", "-p", "rin", str(other), "--data", two])
    assert refused.exit_code == 1 and "--merge" in refused.output
    merged = run("import", "-p", "rin", str(other), "--data", two, "--merge", "--json")
    assert merged.exit_code == 0 and '"memories": 1' in merged.stdout


def test_http_export_streams_and_import_restores(
    server: LiveServer, app: Omoide, clock: FixedClock
) -> None:
    key = server.create_persona("rin")
    seed(app, "rin", clock)
    with server.client(key) as c:
        reply = c.get("/api/export/rin", params={"with_vectors": "true"})
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("application/x-ndjson")
        lines = reply.text.splitlines()
        assert json.loads(lines[0])["with_vectors"] is True
        refused = c.post(
            "/api/import/rin", content=reply.content.replace(b'"s1"', b'"s9"'), headers=NDJSON
        )
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "conflict"
        bad = c.post("/api/import/rin", content=b'{"type": "memory"}\n', headers=NDJSON)
        assert bad.status_code == 422 and "line 1" in bad.json()["error"]["message"]
        assert c.get("/api/export/nobody").status_code in (403, 404)
    other_key = server.create_persona("copy")
    with server.client(other_key) as c:
        done = c.post("/api/import/copy", content=reply.content, headers=NDJSON)
        assert done.status_code == 200, done.text
        assert done.json()["memories"] == sum(1 for line in lines if '"type": "memory"' in line)
        hits = c.get("/api/search/copy", params={"q": "Osaka"}).json()["results"]
        assert any("Osaka" in h["content"] for h in hits)
        assert c.get("/api/export/rin").status_code == 403


def test_cli_import_of_a_file_that_is_not_utf8_is_an_error_not_a_traceback(
    run, tmp_path: Path
) -> None:
    two, good = _exported_rin(run, tmp_path)
    lines = good.read_bytes().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines[:2]) + b"\xff\xfe" + b"".join(lines[2:]))
    result = CliRunner().invoke(main, ["import", "-p", "rin", str(broken), "--data", two])
    assert result.exit_code != 0 and not isinstance(result.exception, UnicodeDecodeError)
    assert f"cannot read {broken}: not UTF-8 text: line 3" in result.output
    # nothing was imported, and the persona the refused import created is gone again
    assert "unknown persona 'rin'" in run("memory", "list", "-p", "rin", "--data", two).output
    crlf = tmp_path / "crlf.jsonl"  # a file that went through a Windows editor still imports
    crlf.write_bytes(good.read_bytes().replace(b"\n", b"\r\n"))
    assert run("import", "-p", "rin", str(crlf), "--data", two).exit_code == 0


def test_cli_export_to_a_folder_that_does_not_exist_is_an_error_not_a_traceback(
    run, tmp_path: Path
) -> None:
    one = str(tmp_path / "one")
    assert run("persona", "create", "rin", "--data", one).exit_code == 0
    out = tmp_path / "missing" / "rin.jsonl"
    result = CliRunner().invoke(main, ["export", "-p", "rin", "--out", str(out), "--data", one])
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1
    assert f"cannot write {out}" in result.output and not out.parent.exists()


def test_cli_export_to_a_named_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path: Path) -> None:
    """Session 30: --out wrote beside its name and renamed over it, whatever it was: a named
    pipe (or root's /dev/stdout) was replaced by a regular file and its reader got nothing.
    Through the installed command, with a reader on the pipe."""
    one = tmp_path / "one"
    env = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(one)}
    omoide = str(Path(sys.executable).parent / "omoide")
    subprocess.run(
        [omoide, "persona", "create", "rin"], env=env, check=True, capture_output=True, timeout=60
    )
    pipe = tmp_path / "out.pipe"
    os.mkfifo(pipe)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_bytes()), daemon=True)
    reader.start()
    done = subprocess.run(
        [omoide, "export", "-p", "rin", "--out", str(pipe)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(pipe.stat().st_mode)  # still the pipe, not a file put in its place
    lines = read[0].decode().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "end"
    assert not list(tmp_path.glob("*.partial"))


def test_http_import_streams_files_past_the_body_limit(make_app, clock: FixedClock) -> None:
    """An upload has its own limit (OMOIDE_MAX_IMPORT_BYTES) and is streamed to disk, so a file
    larger than the JSON body limit imports; past the import limit, or not UTF-8, it is refused
    before anything is written."""
    app = make_app(
        {"OMOIDE_MAX_BODY_BYTES": "4000", "OMOIDE_MAX_IMPORT_BYTES": "400000"}, clock=clock
    )
    app.auth.create_persona("rin")
    seed(app, "rin", clock)
    uv, thread, url = serve_in_thread(create_app(app))
    _, key = app.auth.create_persona("copy")
    try:
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as c:
            exported = b"".join(line.encode() for line in app.transfer.export("rin"))
            assert 4000 < len(exported) < 400_000

            def chunked(data: bytes) -> Iterator[bytes]:
                for start in range(0, len(data), 1000):
                    yield data[start : start + 1000]

            huge = exported * (400_000 // len(exported) + 1)
            for body in (huge, chunked(huge)):
                refused = c.post("/api/import/copy", content=body, headers=NDJSON)
                assert refused.status_code == 413, refused.text
                assert refused.json()["error"] == {
                    "code": "payload_too_large",
                    "message": "request body is larger than 400,000 bytes (the server's "
                    "limit, OMOIDE_MAX_IMPORT_BYTES)",
                }
            broken = c.post(
                "/api/import/copy",
                headers=NDJSON,
                content=exported[:3000] + b"\xff\xfe" + exported[3000:],
            )
            assert broken.status_code == 422 and "UTF-8" in broken.json()["error"]["message"]
            assert c.get("/api/memories/copy").json()["memories"] == []

            done = c.post("/api/import/copy", content=chunked(exported), headers=NDJSON)
            assert done.status_code == 200, done.text
            assert done.json()["memories"] == exported.count(b'"type": "memory"')
            # the JSON body limit still holds everywhere else
            big = c.post("/api/memories/copy", json={"content": "x" * 5000})
            assert big.status_code == 413
            assert big.json()["error"]["message"] == (
                "request body is larger than 4,000 bytes (the server's limit, "
                "OMOIDE_MAX_BODY_BYTES)"
            )
    finally:
        uv.should_exit = True
        thread.join(10)


def test_cli_import_of_a_pointer_to_a_key_nowhere_is_an_error_naming_line_and_key(
    run, tmp_path: Path
) -> None:
    """A hand-edited `superseded_by` naming no memory of the file was stored dangling. Refused
    naming the line and the key; nothing imported, no persona left behind."""
    two, good = _exported_rin(run, tmp_path)
    records = [json.loads(x) for x in good.read_text().splitlines()]
    at = next(i for i, r in enumerate(records) if r["type"] == "memory")
    records[at]["superseded_by"] = "mem_nowhere"
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(main, ["import", "-p", "rin", str(edited), "--data", two])
    assert result.exit_code == 1, result.output
    assert f"line {at + 1}" in result.output and "'mem_nowhere'" in result.output
    assert "unknown persona 'rin'" in run("memory", "list", "-p", "rin", "--data", two).output


@pytest.mark.parametrize("source", ["omoide", "mem0"])
def test_cli_import_of_a_utf16_file_says_it_is_utf16(tmp_path: Path, source: str) -> None:
    """Session 30: a file PowerShell saved (UTF-16, with its byte order mark) was "not UTF-8
    text: line 1, byte 1 of the line", which did not say what it was."""
    env = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(tmp_path / "data")}
    path = tmp_path / "rin.jsonl"
    path.write_text('[{"memory": "Likes tea"}]\n', encoding="utf-16")
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "omoide"),
            "import",
            "-p",
            "rin",
            "--from",
            source,
            str(path),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stderr
    assert (
        "it is UTF-16 (it starts with a UTF-16 byte order mark): save or send it as UTF-8"
        in done.stderr
    ), done.stderr
    assert "Traceback" not in done.stderr


def _exported_rin(run, tmp_path: Path) -> tuple[str, Path]:
    """Persona rin with one memory in data folder ``one``, exported to ``rin.jsonl``: an
    empty folder ``two`` to import into, and the file."""
    one, two = str(tmp_path / "one"), str(tmp_path / "two")
    assert run("persona", "create", "rin", "--data", one).exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user keeps bees", "--data", one).exit_code == 0
    good = tmp_path / "rin.jsonl"
    assert run("export", "-p", "rin", "--out", str(good), "--data", one).exit_code == 0
    return two, good
