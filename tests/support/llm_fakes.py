"""A real local HTTP server that speaks the OpenAI and Anthropic APIs, scripted per test.

Each test queues the replies it wants (``FakeAPI.queue``) and reads back what the server
received (path, headers, JSON body). Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

API_KEY = "sk-test-SECRET-123"
HANG_LIMIT_S = 5.0


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: Any = None  # dict/list → JSON; str → raw text
    headers: dict[str, str] = field(default_factory=dict)  # a content-type replaces JSON's
    hang: bool = False  # never answer (until the test ends or the client leaves)
    events: tuple[str, ...] | None = None  # a stream: each item is written as one SSE event
    delay_s: float = 0.0  # pause before each streamed event


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any


class FakeAPI:
    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.received: list[Received] = []
        self.release = threading.Event()
        self.disconnected = threading.Event()  # a client closed the connection before the end
        self.base = ""
        self._lock = threading.Lock()

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def take(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
            return self.replies.popleft() if self.replies else Reply(500, {"error": "no reply"})

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.received]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        received = Received(
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=json.loads(raw) if raw else None,
        )
        reply = self.server.fake.take(received)
        if reply.hang:
            self._hang()
            return
        if reply.events is not None:
            self._stream(reply)
            return
        payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
        data = payload.encode()
        self.send_response(reply.status)
        if "content-type" not in {name.lower() for name in reply.headers}:
            self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _hang(self) -> None:
        """Answer nothing; notice a client that closes the connection meanwhile."""
        fake = self.server.fake
        deadline = time.monotonic() + HANG_LIMIT_S
        while not fake.release.is_set() and time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.05)
            if readable and not self.connection.recv(1, socket.MSG_PEEK):
                fake.disconnected.set()
                return

    def _stream(self, reply: Reply) -> None:
        self.send_response(reply.status)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        try:
            for event in reply.events or ():
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                self.wfile.write(event.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.server.fake.disconnected.set()
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


class _Server(ThreadingHTTPServer):
    fake: FakeAPI

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and left is expected here


def openai_answer(content: str | None, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-test",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def openai_stream(
    *pieces: str, tool_call: dict[str, Any] | None = None, done: bool = True
) -> tuple[str, ...]:
    """SSE events of an OpenAI stream: a role chunk, one chunk per text piece (or one tool
    call), a finish chunk and ``data: [DONE]``."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-test",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(body)}\n\n"

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in pieces]
    if tool_call is not None:
        events.append(chunk({"tool_calls": [{"index": 0, **tool_call}]}))
    events.append(chunk({}, "tool_calls" if tool_call else "stop"))
    return (*events, "data: [DONE]\n\n") if done else tuple(events)


def anthropic_stream(*pieces: str) -> tuple[str, ...]:
    """SSE events of an Anthropic Messages stream with one text block."""

    def event(name: str, body: dict[str, Any]) -> str:
        return f"event: {name}\ndata: {json.dumps({'type': name, **body})}\n\n"

    return (
        event(
            "message_start",
            {"message": {"id": "msg_1", "model": "claude-test", "usage": {"input_tokens": 10}}},
        ),
        event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}}),
        *(
            event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": p}})
            for p in pieces
        ),
        event("content_block_stop", {"index": 0}),
        event(
            "message_delta", {"delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}
        ),
        event("message_stop", {}),
    )


def anthropic_answer(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": list(blocks),
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def text_block(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def api_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """The error body both APIs use: ``{"error": {"message", "type"}}``."""
    return {"type": "error", "error": {"type": kind, "message": message}}


def start_server(fake: FakeAPI) -> tuple[ThreadingHTTPServer, threading.Thread]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.fake = fake
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    fake.base = f"http://127.0.0.1:{server.server_address[1]}"
    return server, thread


F = TypeVar("F", bound="FakeAPI")


@contextmanager
def running(fake: F) -> Iterator[F]:
    """``fake`` served on a free local port (``fake.base``) until the block ends; a reply
    still hanging is released first, so the server stops at once."""
    server, thread = start_server(fake)
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=2)
