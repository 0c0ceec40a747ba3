"""A real local HTTP server that speaks the OpenAI and Anthropic APIs, scripted per test.

Each test queues the replies it wants (``FakeAPI.queue``) and reads back what the server
received (path, headers, JSON body). Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

API_KEY = "sk-test-SECRET-123"
HANG_LIMIT_S = 5.0


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: Any = None  # dict/list → JSON; str → raw text
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False  # never answer (until the test ends)


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
            self.server.fake.release.wait(HANG_LIMIT_S)
            return
        payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
        data = payload.encode()
        self.send_response(reply.status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

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
