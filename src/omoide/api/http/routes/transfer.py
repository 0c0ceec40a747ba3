"""``/api/export/{persona}`` (streamed JSON Lines) and ``/api/import/{persona}``."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.deps import App, persona_access
from omoide.api.http.json_body import JsonRefused, encoding_refusal, is_json_media, strict_json
from omoide.api.http.schemas import errors
from omoide.api.http.schemas.transfer import IMPORT_JSON_BODY, ImportReply
from omoide.api.http.uploads import no_room_refused, upload_file
from omoide.engine import json_text
from omoide.errors import InvalidInput
from omoide.service.event_input import MAX_SPEAKER_CHARS
from omoide.service.peer_import import OPTION_SOURCE, misplaced_option
from omoide.service.validate import MAX_USER_ID_CHARS

router = APIRouter(tags=["transfer"])

Persona = Annotated[str, Depends(persona_access)]
NDJSON = "application/x-ndjson"
Source = Literal["omoide", "mem0", "mcp-memory", "chat"]


@router.get(
    "/api/export/{persona}",
    response_class=StreamingResponse,
    summary="Export the persona losslessly as JSON Lines (streamed; docs/import.md)",
    responses={
        200: {
            "content": {NDJSON: {"schema": {"type": "string"}}},
            "description": "One JSON record a line, header first.",
        },
        **errors(401, 403, 404, 422),
    },
)
def export_persona(
    persona: Persona,
    app: App,
    with_vectors: bool = Query(False, description="Include embedding vectors (base64 float32)"),
) -> StreamingResponse:
    lines = app.transfer.export(persona, with_vectors=with_vectors)
    return StreamingResponse(
        (line.encode("utf-8") for line in lines),
        media_type=NDJSON,
        headers={"Content-Disposition": f'attachment; filename="{persona}.omoide.jsonl"'},
    )


def _read_lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as handle:
        yield from handle


async def _spool(request: Request, path: Path, data_dir: Path) -> None:
    """Write the body to ``path`` as it arrives (the guard counts it against
    ``OMOIDE_MAX_IMPORT_BYTES``), checking on the way that it is UTF-8 and not blank; a disk
    with no room for it is a 507 (:func:`no_room_refused`)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    size, blank = 0, True
    with no_room_refused(data_dir), path.open("wb") as out:
        async for chunk in request.stream():
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                hint = json_text.not_utf8_hint(chunk) if size == 0 else ""
                raise InvalidInput(
                    f"the request body is not UTF-8 text (byte {size + exc.start}){hint}"
                ) from None
            blank = blank and not chunk.strip()
            out.write(chunk)
            size += len(chunk)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise InvalidInput(
            "the request body is not UTF-8 text (it ends inside a character)"
        ) from None
    if blank:
        raise InvalidInput("the request body must hold the file to import")


# The sources whose file is JSON Lines, as a refusal of one sent as one JSON document names it.
_JSON_LINES = {"omoide": "an Omoide export", "mcp-memory": "an MCP memory file"}

_BODY = {
    "requestBody": {
        "required": True,
        "description": (
            "The file: an Omoide export (JSON Lines), a Mem0 memory list, an MCP memory server's "
            "memory.jsonl, or chats (OpenAI messages, ChatGPT or Claude conversations export)."
        ),
        "content": {
            NDJSON: {"schema": {"type": "string"}},
            # Mem0 and chat files are one JSON document: a list, or an object holding one
            "application/json": {"schema": IMPORT_JSON_BODY},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        },
    }
}


@router.post(
    "/api/import/{persona}",
    response_model=None,
    openapi_extra=_BODY,
    summary="Import an Omoide export (or, with source, a Mem0 / MCP memory / chat "
    "file) into the persona",
    responses={200: {"model": ImportReply}, **errors(401, 403, 404, 409, 413, 422)},
)
async def import_persona(
    persona: Persona,
    request: Request,
    app: App,
    merge: bool = Query(
        False,
        description="An Omoide export: allow a persona that already holds data "
        "(what it already holds is skipped; a session it "
        "holds with other turns is a 409). Refused with another source, "
        "whose import always merges",
    ),
    source: Source = Query("omoide", description="What wrote the file"),
    user_id: str | None = Query(
        None,
        min_length=1,
        max_length=MAX_USER_ID_CHARS,
        description="mem0: only this user_id's memories",
    ),
    # no min_length for the speaker names: an empty one is told as a blank one is
    # (check_speaker_name), not in the query's own words
    user_name: str | None = Query(
        None,
        max_length=MAX_SPEAKER_CHARS,  # a turn's speaker
        description="chat: speaker name of the user's turns (default: user)",
    ),
    assistant_name: str | None = Query(
        None,
        max_length=MAX_SPEAKER_CHARS,
        description="chat: speaker name of the assistant (default: the persona)",
    ),
) -> dict[str, Any]:
    given = {"user_id": user_id, "user_name": user_name, "assistant_name": assistant_name}
    misplaced = misplaced_option(source, given)
    if misplaced is not None:  # ignoring it would import otherwise than asked
        raise InvalidInput(
            f"{misplaced} applies only to source={OPTION_SOURCE[misplaced]}, and this import "
            f"is source={source}: leave it out, or give the source it belongs to",
            field=misplaced,
        )
    if merge and source != "omoide":  # accepted and ignored before: the import merges anyway
        raise InvalidInput(
            f"merge applies only to an Omoide export (source=omoide); a source={source} "
            "import always merges (it adds to what the persona holds, skipping what it holds "
            "already): leave merge out",
            field="merge",
        )
    with upload_file(app.settings.data_dir) as path:
        if (request.headers.get("content-type") or "").lower().startswith("multipart/"):
            # curl -F file=@x.jsonl: the form's boundary lines were read as the file's first
            raise InvalidInput(
                "send the file itself as the request body (curl --data-binary "
                f"@FILE -H 'Content-Type: {NDJSON}'), not as a multipart form "
                "(curl -F)"
            )
        encoded = encoding_refusal(request.headers.get("content-encoding"))
        if encoded is not None:  # a gzip file, read as text, was "not UTF-8 text (byte 1)"
            raise InvalidInput(encoded)
        await _spool(request, path, app.settings.data_dir)
        if is_json_media(request.headers.get("content-type")):
            try:  # one JSON document: read as strictly as any JSON body of the API
                strict_json(path.read_bytes())
            except JsonRefused as exc:
                # an export or memory.jsonl sent as application/json, or with no content type
                what = _JSON_LINES.get(source)
                lines = (
                    f" ({what} is JSON Lines, one record a line: send it as Content-Type: {NDJSON})"
                    if what
                    else ""
                )
                raise InvalidInput(f"{exc}{lines}", field=exc.field) from None
        if source != "omoide":
            report = await run_in_threadpool(
                app.peers.import_text,
                persona,
                source,
                path.read_text(encoding="utf-8"),
                user_id=user_id,
                user_name=user_name,
                assistant_name=assistant_name,
            )
        else:
            report = await run_in_threadpool(
                app.transfer.import_lines, persona, lambda: _read_lines(path), merge=merge
            )
    return report.as_dict()
