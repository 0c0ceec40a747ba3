"""A local fake of an OpenAI-compatible ``/v1/embeddings`` endpoint.

Vectors come from the hash embedder (deterministic, similar strings → similar vectors), of a
size the test can change while it runs; it can fail the next requests with 503, require an
API key, and records every request's inputs. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from omoide.embed.hashing import HashEmbedder

__all__ = ["FakeEmbeddings", "fake_embeddings"]


@dataclass
class FakeEmbeddings:
    dim: int = 48
    api_key: str | None = None
    fail_next: int = 0
    requests: list[list[str]] = field(default_factory=list)
    url: str = ""

    def answer(self, body: dict[str, Any], auth: str | None) -> tuple[int, dict[str, Any]]:
        if self.api_key is not None and auth != f"Bearer {self.api_key}":
            return 401, {
                "error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}
            }
        if self.fail_next > 0:
            self.fail_next -= 1
            return 503, {"error": {"message": "model is loading"}}
        if body.get("model") != "fake-embed":
            return 404, {"error": {"message": f"model {body.get('model')!r} not found"}}
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        self.requests.append(list(texts))
        vectors = HashEmbedder(self.dim).embed_passages(texts)
        data = [
            {"object": "embedding", "index": i, "embedding": v.tolist()}
            for i, v in enumerate(vectors)
        ]
        data.reverse()  # servers may answer out of order; the index says where each goes
        return 200, {"object": "list", "data": data, "model": "fake-embed"}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeEmbeddings

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path != "/v1/embeddings":
            status, reply = 404, {"error": {"message": "no such route"}}
        else:
            status, reply = self.fake.answer(body, self.headers.get("authorization"))
        raw = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        return


@contextmanager
def fake_embeddings(**kwargs: Any) -> Iterator[FakeEmbeddings]:
    fake = FakeEmbeddings(**kwargs)
    handler = type("Handler", (_Handler,), {"fake": fake})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=2)
