"""An export whose stream fails after its 200 was sent (a database error between two records)
cannot pass for a whole file: the server ends the connection without the last chunk, so the
client sees the cut, and what it kept has no ``end`` record, which ``omoide import`` refuses
naming the cut. The fault is injected at the store port: the dump handle's memory reader
raises after one memory, as a disk failing mid-read would."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer

from omoide.cli import main
from omoide.client import Client
from omoide.errors import StorageUnavailable


class _FailingDump:
    """A dump handle that fails after the first memory it gives."""

    def __init__(self, dump: Any) -> None:
        self._dump = dump

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dump, name)

    def __enter__(self) -> _FailingDump:
        self._dump.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._dump.__exit__(*exc)

    def memories(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        for n, record in enumerate(self._dump.memories(**kwargs)):
            if n == 1:
                raise StorageUnavailable("the database failed a read (injected)")
            yield record


class _FailingStore:
    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def dump(self, name: str) -> _FailingDump:
        return _FailingDump(self._store.dump(name))


def test_an_export_cut_after_its_200_is_seen_cut_and_refused_by_import(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("The user keeps bees.", "The user grows tomatoes.", "The user rows."):
            assert rin.post("/api/memories/rin", json={"content": text}).status_code == 201
    monkeypatch.setattr(server.omoide.transfer, "store", _FailingStore(server.omoide.store))
    kept = bytearray()
    with server.client(key) as rin, rin.stream("GET", "/api/export/rin") as reply:
        assert reply.status_code == 200
        # before: the stream ended as a whole one would, and the client could not tell
        with pytest.raises(httpx.RemoteProtocolError, match="incomplete chunked read"):
            for chunk in reply.iter_raw():
                kept += chunk
    sdk_file = tmp_path / "sdk.jsonl"
    with Client(server.url, api_key=key) as sdk, pytest.raises(httpx.RemoteProtocolError):
        sdk.export_to("rin", sdk_file)
    assert "end" not in [json.loads(line)["type"] for line in sdk_file.read_text().splitlines()]
    lines = bytes(kept).decode().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["header", "settings", "memory"]
    saved = tmp_path / "rin.jsonl"
    saved.write_bytes(bytes(kept))
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    done = CliRunner().invoke(main, ["import", "-p", "rin", str(saved)])
    assert done.exit_code == 1, done.output
    assert done.output == (
        "Error: the file stops after line 3 without its end record: it was cut off (an "
        "interrupted download or copy); nothing was imported. Import the whole file\n"
    )


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_an_export_cut_after_its_200_is_one_log_line_and_one_count_naming_the_request(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's log says the cut in the request's one line, at ERROR, with its cause;
    before: that line said a plain 200, and uvicorn's "Exception in ASGI application" with a
    traceback followed (on ``uvicorn.error``, which the process's stderr shows)."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("The user keeps bees.", "The user grows tomatoes."):
            assert rin.post("/api/memories/rin", json={"content": text}).status_code == 201
    monkeypatch.setattr(server.omoide.transfer, "store", _FailingStore(server.omoide.store))
    uvicorn_said = _Kept()
    logging.getLogger("uvicorn.error").addHandler(uvicorn_said)
    try:
        with (
            caplog.at_level(logging.INFO, logger="omoide.access"),
            server.client(key) as rin,
            rin.stream("GET", "/api/export/rin") as reply,
        ):
            assert reply.status_code == 200
            with pytest.raises(httpx.RemoteProtocolError, match="incomplete chunked read"):
                for _chunk in reply.iter_raw():
                    pass
        deadline = time.monotonic() + 10  # the server's task logs as the connection closes
        while time.monotonic() < deadline and not _export_lines(caplog):
            time.sleep(0.01)
    finally:
        logging.getLogger("uvicorn.error").removeHandler(uvicorn_said)
    [line] = _export_lines(caplog)
    assert line.levelno == logging.ERROR
    cause = "StorageUnavailable: the database failed a read (injected)"
    assert line.getMessage() == f"GET /api/export/{{persona}} 200 cut off after its status: {cause}"
    assert (line.status, line.persona, line.cut) == (200, "rin", cause)  # type: ignore[attr-defined]
    said = [r for r in uvicorn_said.records if r.levelno >= logging.WARNING]
    assert said == [], [r.getMessage() for r in said]
    with server.admin() as admin:
        text = admin.get("/metrics").text
    # counted once, with the status it was sent (when it was sent), not also as a 500
    export = 'omoide_http_requests_total{method="GET",route="/api/export/{persona}"'
    assert f'{export},status="200"}} 1' in text, text
    assert f'{export},status="500"}}' not in text, text


def _export_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name == "omoide.access" and r.getMessage().startswith("GET /api/export/")
    ]
