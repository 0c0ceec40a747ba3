"""Prometheus text metrics: request counts and latencies, memories per persona, job depth."""

from __future__ import annotations

import threading
from collections import defaultdict

__all__ = ["Metrics"]

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """What ``/metrics`` renders; the request log's middleware
    (:class:`~omoide.api.http.access_log.AccessLog`) observes each reply."""

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
