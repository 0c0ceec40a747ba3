"""The OpenAI-compatible chat proxy: ``POST /v1/chat/completions``, ``GET /v1/models`` and
``GET /v1/models/{model}``.

The Bearer key is the persona's (or the admin key with ``X-Omoide-Persona``). The route runs the
pipeline of ``service/chat.py`` (prepare, compress) in a worker thread, relays the request to the
configured upstream (streamed as server-sent ``chat.completion.chunk`` events ending with
``data: [DONE]``, or as one ``chat.completion``), then records the turn after the reply has
been sent (a request routed by its recorded turns first waits for those still being recorded:
``service/chat_pending.py``). A client that disconnects cancels the upstream call.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, Path, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from omoide.api.errors import INTERNAL_MESSAGE, error_body, raced_erase
from omoide.api.http.access_log import record_persona
from omoide.api.http.deps import App, Caller, access_replay, get_app
from omoide.api.http.schemas import ChatCompletion, ChatRequest, ModelList, ModelOut, errors
from omoide.engine.compact import message_text
from omoide.engine.errors import named
from omoide.errors import Forbidden, InvalidInput, LLMNotConfigured, NotFound, OmoideError
from omoide.model import check_persona_name
from omoide.service.chat import Prepared
from omoide.service.chat_messages import check_messages
from omoide.service.chat_pending import Pending
from omoide.service.chat_summary import Compressed
from omoide.service.validate import NAME_PATTERN, SESSION_ID_PATTERN
from omoide.wiring import Omoide

__all__ = ["router"]

logger = logging.getLogger(__name__)

router = APIRouter(tags=["chat (OpenAI-compatible)"])

CLIENT_CLOSED = 499  # the client went away; nobody reads this status


@access_replay(
    lambda request, caller: chat_persona(
        request, caller, get_app(request), request.headers.get("x-omoide-persona")
    )
)
def chat_persona(
    request: Request,
    caller: Caller,
    app: App,
    asked: str | None = Header(
        None,
        alias="X-Omoide-Persona",
        pattern=NAME_PATTERN,
        description="With the admin key: the persona to chat as (required then).",
    ),
) -> str:
    """The persona of the key; the admin key names one in ``X-Omoide-Persona``."""
    if caller.is_admin:
        if not asked:
            raise InvalidInput(
                "with the admin key, name the persona in an X-Omoide-Persona header",
                field="X-Omoide-Persona",
            )
        persona = asked
    else:
        persona = str(caller.persona)
        if asked and asked != persona:
            raise Forbidden(
                f"this API key does not grant access to persona {named(asked)}", persona=asked
            )
    check_persona_name(persona)
    record_persona(request.scope, persona)  # not in the path: for the request log
    app.maintenance.require_persona(persona)
    return persona


Persona = Annotated[str, Depends(chat_persona)]


@router.get(
    "/v1/models",
    summary="The model the chat proxy serves (the configured upstream)",
    response_model=None,
    responses={200: {"model": ModelList}, **errors(401, 403, 404, 422)},
)
def models(persona: Persona, app: App) -> dict[str, Any]:
    return {"object": "list", "data": [_served_model(app)]}


@router.get(
    # ``:path``: an upstream model id may hold a slash (OpenRouter's ``openai/gpt-4o``), which
    # the ``openai`` SDK sends as ``%2F`` and the server decodes before routing
    "/v1/models/{model:path}",
    summary="The model the chat proxy serves, by its id (OpenAI's retrieve model)",
    response_model=None,
    responses={200: {"model": ModelOut}, **errors(401, 403, 404, 422)},
)
def retrieve_model(
    persona: Persona,
    app: App,
    model: str = Path(description="The model's id, as GET /v1/models lists it."),
) -> dict[str, Any]:
    served = _served_model(app)
    if model != served["id"]:
        raise NotFound(
            f"no model {named(model)}: this proxy serves {named(served['id'], 200)} "
            "(GET /v1/models)",
            model=model,
        )
    return served


def _served_model(app: Omoide) -> dict[str, Any]:
    """The one model the proxy serves (the upstream's; "omoide" without one), as an entry of
    OpenAI's model list."""
    upstream = app.chat_upstream
    model = upstream.model if upstream is not None else "omoide"
    return {"id": model, "object": "model", "created": 0, "owned_by": "omoide"}


@router.post(
    "/v1/chat/completions",
    summary="OpenAI chat completions with the persona's memory (streamed or not)",
    response_model=None,
    responses={
        200: {
            "model": ChatCompletion,
            "description": (
                "The upstream's chat.completion with an omoide object; with stream: true, "
                "server-sent chat.completion.chunk events ending with data: [DONE]."
            ),
            "content": {
                "text/event-stream": {
                    "schema": {
                        "type": "object",
                        "description": "One server-sent event.",
                        "properties": {"data": {"type": "string"}, "event": {"type": "string"}},
                    }
                }
            },
        },
        **errors(401, 403, 404, 413, 422, 429, 502, 503, 504),
    },
)
async def chat_completions(
    request: Request,
    persona: Persona,
    app: App,
    payload: ChatRequest,
    session_header: str | None = Header(
        None,
        alias="X-Omoide-Session",
        pattern=SESSION_ID_PATTERN,
        description="The conversation's session id (default: "
        "chat-<user>, or derived from the first user "
        "message).",
    ),
) -> Response:
    body = payload.model_dump(exclude_unset=True)
    messages = check_messages(body.get("messages"))
    upstream = app.chat_upstream
    if upstream is None:
        raise LLMNotConfigured(
            "the chat proxy needs an upstream LLM: set OMOIDE_LLM_PROVIDER (openai or "
            "anthropic), OMOIDE_LLM_MODEL and, as needed, OMOIDE_LLM_BASE_URL and "
            "OMOIDE_LLM_API_KEY, then restart (see docs/llm.md)"
        )
    upstream.check(body)  # what this upstream cannot carry: refused before anything runs
    session_id = await run_in_threadpool(
        app.chat.session_for, persona, messages, header=session_header, user=body.get("user")
    )
    started = time.perf_counter()
    prepared, compressed = await run_in_threadpool(
        _prepare, app, persona, messages, body.get("tools"), session_id
    )
    outgoing = {**body, "messages": list(compressed.compaction.messages)}
    info = _info(session_id, prepared, compressed)
    headers = _headers(info)
    # The pipeline's own time (memory, compaction), for clients and bench/chat.py.
    headers["Server-Timing"] = f"omoide;dur={(time.perf_counter() - started) * 1000:.1f}"

    answered: list[Pending] = []  # opened once the reply is whole, before the client reads it

    def record(reply: str) -> None:
        try:
            app.chat.record(persona, session_id, messages, reply)
        except OmoideError as exc:  # the reply is already out; the log is all we can do
            logger.warning("chat turn not recorded persona=%s: %s", persona, exc.code)
        except Exception as exc:
            if raced_erase(exc) is None:
                raise
            # the persona or session was erased while the reply went out: nothing to record
            logger.info("chat turn not recorded persona=%s: erased meanwhile", persona)
        finally:
            for pending in answered:
                pending.close()

    if body.get("stream") is True:
        stream = await upstream.open_stream(outgoing)
        parts: list[str] = []

        def record_streamed() -> None:
            if parts and parts[-1] is _END:  # only a reply that arrived whole
                record("".join(parts[:-1]))

        def whole() -> None:
            answered.append(app.sessions.pending.expect(persona))

        return StreamingResponse(
            _relay(stream, parts, whole),
            media_type="text/event-stream",
            headers=headers,
            background=BackgroundTask(record_streamed),
        )
    reply = await _unless_disconnected(request, upstream.complete(outgoing))
    if reply is None:
        return Response(status_code=CLIENT_CLOSED)
    answered.append(app.sessions.pending.expect(persona))
    return JSONResponse(
        {**reply, "omoide": info},
        headers=headers,
        background=BackgroundTask(record, _reply_text(reply)),
    )


def _prepare(
    app: Omoide, persona: str, messages: list[dict[str, Any]], tools: Any, session_id: str
) -> tuple[Prepared, Compressed]:
    prepared = app.chat.prepare(persona, messages, session_id)
    return prepared, app.chat.compress(persona, prepared.messages, tools=tools)


_END = "\x00end"  # appended to ``parts`` once the upstream stream finished normally


def _event(value: Any) -> str:
    """One SSE event holding ``value`` as compact JSON (``{"error":{"code":…}}``): as every
    JSON body the server writes (Starlette's ``JSONResponse``) and as OpenAI writes its own
    stream's chunks; a client reads the data line as JSON either way (the OpenAI SDK's
    ``json.loads``), so only the spaces the events held (``{"error": {"code": …}}``) go."""
    return f"data: {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}\n\n"


async def _relay(stream: Any, parts: list[str], whole: Callable[[], None]) -> AsyncIterator[str]:
    """Upstream chunks as SSE; an upstream failure mid-stream becomes one error event.
    ``whole`` is called once the reply arrived whole, before the client can read its end."""
    try:
        async for chunk in stream:
            for choice in chunk.get("choices") or ():
                if choice.get("index", 0) == 0:  # one choice: n other than 1 is refused
                    parts.append(message_text(choice.get("delta") or {}))
            yield _event(chunk)
        parts.append(_END)
        whole()
    except OmoideError as exc:
        logger.warning("chat stream failed mid-way: %s", exc.code)
        yield _event(exc.to_dict())
    except Exception as exc:  # a fault of ours: an error event (was a stream cut with no end)
        logger.exception("chat stream failed mid-way: %s", type(exc).__name__)
        yield _event(error_body("internal", INTERNAL_MESSAGE))  # as the app's last 500
    finally:
        with anyio.CancelScope(shield=True):  # a disconnect cancels us; still close upstream
            await stream.aclose()
    yield "data: [DONE]\n\n"


async def _unless_disconnected(
    request: Request, call: Awaitable[dict[str, Any]]
) -> dict[str, Any] | None:
    """The upstream's answer, or None (the call cancelled) when the client leaves first."""
    task = asyncio.ensure_future(call)
    watch = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
    if not task.done():
        task.cancel()
        logger.info("chat client disconnected; upstream call cancelled")
        return None
    return task.result()


async def _disconnected(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _reply_text(reply: dict[str, Any]) -> str:
    """The text to record of a reply: its first choice's message's text, or the text parts of
    a list of parts (Mistral's reasoning models send a ``thinking`` part, then a ``text`` part);
    no text (null content with a tool call) is "". A streamed reply's deltas are read alike."""
    choices = reply.get("choices") or [{}]
    return message_text(choices[0].get("message") or {})


def _info(session_id: str, prepared: Prepared, compressed: Compressed) -> dict[str, Any]:
    prompt, compaction = prepared.prompt, compressed.compaction
    return {
        "session_id": session_id,
        "injected": {
            "memories": list(prompt.memories),
            "blocks": list(prompt.blocks),
            "user_state": list(prompt.user_keys),
            "persona_state": list(prompt.persona_keys),
            "tokens": prompt.tokens,
        },
        "compaction": {
            "stage": compaction.stage,
            "tokens_before": compaction.tokens_before,
            "tokens_after": compaction.tokens_after,
            "summary": compressed.summary,
        },
    }


def _headers(info: dict[str, Any]) -> dict[str, str]:
    injected, compaction = info["injected"], info["compaction"]
    return {
        "X-Omoide-Session": info["session_id"],
        "X-Omoide-Injected": (
            f"memories={len(injected['memories'])}; "
            f"blocks={len(injected['blocks'])}; "
            f"user_state={len(injected['user_state'])}; "
            f"persona_state={len(injected['persona_state'])}; "
            f"tokens={injected['tokens']}; "
            f"keys={','.join(injected['memories'])}"
        ),
        "X-Omoide-Compaction": (
            f"stage={compaction['stage']}; "
            f"tokens_before={compaction['tokens_before']}; "
            f"tokens_after={compaction['tokens_after']}; "
            f"summary={compaction['summary'] or 'none'}"
        ),
    }
