"""``/api/export/{persona}`` (streamed JSON Lines) and ``/api/import/{persona}``."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.deps import App, persona_access
from omoide.errors import InvalidInput

router = APIRouter(tags=["transfer"])

Persona = Annotated[str, Depends(persona_access)]


@router.get("/api/export/{persona}", response_class=StreamingResponse,
            summary="Export the persona losslessly as JSON Lines (streamed)")
def export_persona(persona: Persona, app: App, with_vectors: bool = Query(
        False, description="Include embedding vectors (base64 float32)")) -> StreamingResponse:
    lines = app.transfer.export(persona, with_vectors=with_vectors)
    return StreamingResponse(
        (line.encode("utf-8") for line in lines), media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{persona}.omoide.jsonl"'})


def _read_lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as handle:
        yield from handle


@router.post("/api/import/{persona}",
             summary="Import an Omoide export (or, with source, a Mem0 / MCP memory / chat "
                     "file) into the persona")
async def import_persona(
        persona: Persona, request: Request, app: App,
        merge: bool = Query(False, description="Allow a persona that already holds data"),
        source: str = Query("omoide", description="omoide | mem0 | mcp-memory | chat"),
        user_id: str | None = Query(None, description="mem0: only this user_id"),
        user_name: str = Query("user", description="chat: speaker name of the user"),
        assistant_name: str | None = Query(None, description="chat: speaker name of the "
                                                               "assistant")) -> dict[str, Any]:
    if source not in ("omoide", "mem0", "mcp-memory", "chat"):
        raise InvalidInput("source must be one of omoide, mem0, mcp-memory, chat",
                           field="source")
    raw = await request.body()
    if not raw.strip():
        raise InvalidInput("the request body must hold the file to import")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("the request body is not UTF-8 text") from None
    if source != "omoide":
        report = await run_in_threadpool(
            app.peers.import_text, persona, source, text, user_id=user_id,
            user_name=user_name, assistant_name=assistant_name)
        return report.as_dict()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "import.jsonl"
        path.write_text(text, encoding="utf-8")
        report = await run_in_threadpool(app.transfer.import_lines, persona,
                                         lambda: _read_lines(path), merge=merge)
    return report.as_dict()
