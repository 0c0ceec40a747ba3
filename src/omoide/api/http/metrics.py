"""Prometheus text metrics: request counts and latencies, memories per persona, job depth."""

from __future__ import annotations

import threading
import time
from collections import defaultdict

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from omoide.api.http.access_log import route_template

__all__ = ["Metrics", "Observed"]

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count: dict[tuple[str, str, int], int] = defaultdict(int)
        self._hist: dict[tuple[str, str], list[int]] = {}
        self._sum: dict[tuple[str, str], float] = defaultdict(float)

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            self._count[(method, route, status)] += 1
            buckets = self._hist.setdefault((method, route), [0] * (len(_BUCKETS) + 1))
            for i, bound in enumerate(_BUCKETS):
                if seconds <= bound:
                    buckets[i] += 1
            buckets[-1] += 1
            self._sum[(method, route)] += seconds

    def render(self, *, memories: dict[str, int], job_depth: int, mcp_sessions: int = 0) -> str:
        lines = [
            "# HELP omoide_http_requests_total HTTP requests by method, route and status.",
            "# TYPE omoide_http_requests_total counter",
        ]
        with self._lock:
            for (method, route, status), n in sorted(self._count.items()):
                lines.append(
                    f'omoide_http_requests_total{{method="{method}",route="{route}",'
                    f'status="{status}"}} {n}'
                )
            lines += [
                "# HELP omoide_http_request_seconds HTTP request latency.",
                "# TYPE omoide_http_request_seconds histogram",
            ]
            for (method, route), buckets in sorted(self._hist.items()):
                labels = f'method="{method}",route="{route}"'
                for bound, n in zip(_BUCKETS, buckets, strict=False):
                    lines.append(f'omoide_http_request_seconds_bucket{{{labels},le="{bound}"}} {n}')
                lines.append(
                    f'omoide_http_request_seconds_bucket{{{labels},le="+Inf"}} {buckets[-1]}'
                )
                lines.append(
                    f"omoide_http_request_seconds_sum{{{labels}}} {self._sum[(method, route)]:.6f}"
                )
                lines.append(f"omoide_http_request_seconds_count{{{labels}}} {buckets[-1]}")
        lines += [
            "# HELP omoide_memories Active memories per persona.",
            "# TYPE omoide_memories gauge",
        ]
        lines += [f'omoide_memories{{persona="{p}"}} {n}' for p, n in sorted(memories.items())]
        lines += [
            "# HELP omoide_job_queue_depth Jobs pending or running.",
            "# TYPE omoide_job_queue_depth gauge",
            f"omoide_job_queue_depth {job_depth}",
            "# HELP omoide_mcp_sessions Open MCP sessions (streamable HTTP).",
            "# TYPE omoide_mcp_sessions gauge",
            f"omoide_mcp_sessions {mcp_sessions}",
        ]
        return "\n".join(lines) + "\n"


class Observed:
    """Pure ASGI middleware: each reply counted and timed when its status is sent (for a
    streamed reply, the time to its first byte); an unexpected error before any status as
    the 500 it is answered with.

    Not ``@app.middleware("http")``: Starlette's ``BaseHTTPMiddleware`` relays a streamed body
    through a queue and ends it cleanly when the route's stream raises, so an export cut by a
    database error mid-stream reached the client as a complete 200. Passed straight through,
    the error reaches uvicorn, which closes the connection without the closing chunk: the
    client sees the cut (curl's exit 18, httpx's ``RemoteProtocolError``)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        counted = False

        def count(status: int) -> None:
            nonlocal counted
            counted = True
            seconds = time.perf_counter() - started
            self.metrics.observe(scope["method"], route_template(scope), status, seconds)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                count(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            # the 500 is sent by Starlette's outermost layer, outside this one: counted here
            # (a cancelled request, a BaseException, answered nothing and is not counted)
            if not counted:
                count(500)
            raise
