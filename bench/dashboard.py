"""Dashboard page latency at scale (issue 12): every page rendered server-side at 100k memories.

A persona is bulk-loaded with ``lib.synthetic.SyntheticCorpus`` through ``MemoryStore.insert_many``
(real FTS and vector index; synthetic texts, tags, dates and clustered vectors), next to a small
second persona, a 200-turn session cut into episodes, blocks and state history. Each page is then
requested through the real ASGI app in this process (Starlette's TestClient: routing, the
session cookie, the services, SQLite and Jinja2 rendering; no network), signed in as the admin.
The search page embeds its query with the real embedder, so it includes that cost.

    .venv/bin/python bench/dashboard.py                 # 100k; bench/results/dashboard.{md,json}
    .venv/bin/python bench/dashboard.py --size 10000 --repeats 1 --n 5   # quick check

Target (issue 12): every page ≤ 150 ms server-side at 100k memories.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from lib.cli import parser as bench_parser
from lib.metrics import Repeated, timed_wall_cpu_ms
from lib.reports import load_average, log, machine_info, md_table, write_results
from lib.synthetic import NOW, SyntheticCorpus, chunks
from omoide.clock import FixedClock, iso
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.wiring import Omoide, build

PERSONA = "bench"
ADMIN_KEY = "omo_admin_dashboard-bench"
TARGET_MS = 150.0
LOAD_BATCH = 2000


def load(app: Omoide, size: int) -> float:
    """Fill the personas; returns the bulk-load seconds."""
    app.auth.create_persona(PERSONA)
    app.auth.create_persona("small")
    corpus = SyntheticCorpus(app.embedder.dim)
    started = time.perf_counter()
    for persona, n in ((PERSONA, size), ("small", 100)):
        store = app.store.memories(persona)
        for count in chunks(n, LOAD_BATCH):
            news, vectors, stabilities = corpus.batch(count)
            store.insert_many(news, vectors, stabilities=stabilities, now=NOW)
    seconds = time.perf_counter() - started
    app.sessions.open(PERSONA, session_id="ses-long")
    app.sessions.record(
        PERSONA,
        "ses-long",
        [
            {
                "speaker": "user" if i % 2 == 0 else "rin",
                "role": "user" if i % 2 == 0 else "assistant",
                "content": f"Turn {i}: talking about topic {i // 20}, detail {i}.",
            }
            for i in range(200)
        ],
    )
    app.sessions.end(PERSONA, "ses-long")
    for episode_id in app.sessions.segment(PERSONA, "ses-long", final=True):
        app.sessions.consolidate(PERSONA, episode_id)
    for i in range(5):
        app.blocks.write_block(PERSONA, block_name=f"block_{i}", content="内容 " * 40, priority=i)
        app.state.update_user_state(PERSONA, {"name": f"name {i}", "nickname": f"nick {i}"})
    return seconds


def pages(app: Omoide, size: int) -> list[tuple[str, str]]:
    newest = app.memories.list_recent(PERSONA, limit=1)[0].key
    middle = app.memories.list_recent(PERSONA, limit=1, offset=size // 2)[0]
    deep = app.memories.list_recent(PERSONA, limit=1, offset=size - 60)[0]

    def cursor(memory: Any) -> str:  # what the "Older →" link of the page before carries
        row_id = app.store.memories(PERSONA).id_of(memory.key)
        return quote(f"{iso(memory.created_at)}~{row_id}")

    return [
        ("personas", "/"),
        ("persona overview", f"/p/{PERSONA}"),
        ("memories, page 1", f"/p/{PERSONA}/memories"),
        ("memories, a middle page", f"/p/{PERSONA}/memories?before={cursor(middle)}"),
        ("memories, the last page", f"/p/{PERSONA}/memories?before={cursor(deep)}"),
        ("search (hybrid)", f"/p/{PERSONA}/memories?q=coffee+with+a+friend"),
        (
            "search + tags + date range",
            f"/p/{PERSONA}/memories?q=旅行の計画&tags=travel&date_range=last+year",
        ),
        ("memory detail (newest)", f"/p/{PERSONA}/memories/{newest}"),
        ("memory detail (middle)", f"/p/{PERSONA}/memories/{middle.key}"),
        ("blocks", f"/p/{PERSONA}/blocks"),
        ("state", f"/p/{PERSONA}/state"),
        ("sessions", f"/p/{PERSONA}/sessions"),
        ("session (200 turns)", f"/p/{PERSONA}/sessions/ses-long"),
        ("settings", f"/p/{PERSONA}/settings"),
    ]


# The search pages' requests, made to the search service directly: the page minus this is what
# the dashboard itself adds (rendering, session, routing).
SERVICE_SEARCHES = (
    ("search service alone (hybrid)", {"query": "coffee with a friend"}),
    (
        "search service alone (+ tags + date range)",
        {"query": "旅行の計画", "tags": ["travel"], "date_range": "last year"},
    ),
)


def measure_service(
    app: Omoide, params: dict[str, Any], *, repeats: int, n: int
) -> tuple[Repeated, Repeated]:
    request = app.search.build_request(PERSONA, top_k=20, **params)
    app.search.search(PERSONA, request, recall=False)
    walls, cpus = [], []
    for _ in range(repeats):
        runs = [
            timed_wall_cpu_ms(lambda: app.search.search(PERSONA, request, recall=False))
            for _ in range(n)
        ]
        walls.append([r[0] for r in runs])
        cpus.append([r[1] for r in runs])
    return Repeated.of(walls), Repeated.of(cpus)


def sign_in(client: Any) -> None:
    page = client.get("/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    reply = client.post(
        "/login", data={"key": ADMIN_KEY, "csrf": csrf.group(1)}, follow_redirects=False
    )
    assert reply.status_code == 303, reply.text


def measure(client: Any, path: str, *, repeats: int, n: int) -> tuple[Repeated, Repeated]:
    reply = client.get(path)  # warm-up: loads the vector index and the templates once
    assert reply.status_code == 200, (path, reply.status_code, reply.text[:300])
    walls, cpus = [], []
    for _ in range(repeats):
        wall_run, cpu_run = [], []
        for _ in range(n):
            wall, cpu, reply = timed_wall_cpu_ms(lambda: client.get(path))
            assert reply.status_code == 200, path
            wall_run.append(wall)
            cpu_run.append(cpu)
        walls.append(wall_run)
        cpus.append(cpu_run)
    return Repeated.of(walls), Repeated.of(cpus)


def main() -> None:
    parser = bench_parser(__doc__, out="dashboard")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=20, help="requests per page per repeat")
    parser.add_argument("--embedder", default="e5")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite <out>.md from <out>.json without measuring",
    )
    args = parser.parse_args()
    if args.report_only:
        saved = json.loads(args.out.with_suffix(".json").read_text(encoding="utf-8"))
        for name in ("size", "repeats", "n", "embedder"):
            setattr(args, name, saved.get(name, getattr(args, name)))
        write_report(args, saved["machine"], saved["load_s"], saved["pages"])
        return
    from fastapi.testclient import TestClient

    from omoide.api.http.app import create_app

    info = machine_info()
    with tempfile.TemporaryDirectory(prefix="omoide-dash-bench-") as tmp:
        app = build(
            Settings.from_env({}, data_dir=Path(tmp)),
            clock=FixedClock(NOW),
            embedder=make_embedder(args.embedder, threads=1),
            llm=None,
        )
        app.auth.ensure_admin_key(Path(tmp), ADMIN_KEY)
        log(f"loading {args.size:,} memories")
        load_s = load(app, args.size)
        log(f"loaded in {load_s:.1f} s; timing pages")
        results = []
        with TestClient(create_app(app, start_workers=False)) as client:
            sign_in(client)
            for name, path in pages(app, args.size):
                wall, cpu = measure(client, path, repeats=args.repeats, n=args.n)
                log(f"{name}: p50 {wall.p50_median:.1f} ms, p95 {wall.p95_median:.1f} ms")
                results.append(
                    {"page": name, "path": path, "wall": wall.as_dict(), "cpu": cpu.as_dict()}
                )
        for name, params in SERVICE_SEARCHES:
            wall, cpu = measure_service(app, params, repeats=args.repeats, n=args.n)
            log(f"{name}: p50 {wall.p50_median:.1f} ms, p95 {wall.p95_median:.1f} ms")
            results.append(
                {
                    "page": name,
                    "path": "`SearchService.search`, top_k 20",
                    "wall": wall.as_dict(),
                    "cpu": cpu.as_dict(),
                }
            )
        app.close()
    info["load_after"] = load_average()
    write_report(args, info, load_s, results)


def _p95(results: list[dict[str, Any]], page: str) -> float:
    return float(next(r["wall"]["p95_median_ms"] for r in results if r["page"] == page))


def write_report(
    args: argparse.Namespace, info: dict[str, Any], load_s: float, results: list[dict[str, Any]]
) -> None:
    pages_only = [r for r in results if not r["page"].startswith("search")]
    worst = max(pages_only, key=lambda r: r["wall"]["p95_median_ms"])
    search_pages = [
        ("search (hybrid)", "search service alone (hybrid)"),
        ("search + tags + date range", "search service alone (+ tags + date range)"),
    ]
    overhead = [_p95(results, page) - _p95(results, alone) for page, alone in search_pages]
    rows = [
        (
            r["page"],
            r["path"] if r["path"].startswith("`") else f"`{r['path']}`",
            r["wall"]["p50_median_ms"],
            r["wall"]["p95_median_ms"],
            r["wall"]["p95_best_ms"],
            r["cpu"]["p95_median_ms"],
            "yes" if r["wall"]["p95_median_ms"] <= TARGET_MS else "**no**",
        )
        for r in results
    ]
    markdown = "\n".join(
        [
            "# Dashboard page latency",
            "",
            f"Command: `{info['command']}` at {info['revision']}, {info['started_at']}; "
            f"{info['cpus']} cores shared with other work, load average before "
            f"{info['load_average']}, after {info['load_after']}.",
            "",
            f"{args.size:,} synthetic memories in the persona (plus a persona of 100), bulk-loaded "
            f"in {load_s:.1f} s; a 200-turn session cut into episodes; 5 blocks; state history. "
            f"Each page is requested {args.n} times in each of {args.repeats} repeats through the "
            "ASGI app in-process (routing, session cookie, services, SQLite, Jinja2), signed in "
            f"as the admin; the search pages embed their query with `{args.embedder}` (one "
            "thread). "
            "Times in ms: p50 and p95 are the median over repeats; best p95 is the quietest "
            "repeat; "
            "CPU p95 excludes waiting for a core.",
            "",
            f"Target: every page ≤ {TARGET_MS:.0f} ms server-side. Every page but search: worst "
            f"p95 {worst['wall']['p95_median_ms']:.1f} ms ({worst['page']}). The search pages "
            "cost what the API's search service costs for the same request (the rows \"search "
            'service alone" call it directly): the page adds '
            + " and ".join(f"{o:+.1f} ms" for o in overhead)
            + " at p95 (noise at this load), so where they miss the target, it is the search "
            "service's latency at this size and load, not the dashboard's.",
            "",
            md_table(
                ["page", "path", "p50", "p95", "best p95", "CPU p95", f"≤ {TARGET_MS:.0f} ms"], rows
            ),
            "",
            "How it stays flat: lists are keyset pages of 50 (a seek on the "
            "`(persona_id, created_at)` index, so the last page of 100k costs what the first "
            "does); counts come from index-only scans (closed facts from a partial index); a "
            "memory's page reads that memory; search is the API's search service (top 20, "
            "without recall). No page reads all memories.",
            "",
        ]
    )
    write_results(
        args.out,
        markdown,
        {
            "machine": info,
            "size": args.size,
            "repeats": args.repeats,
            "n": args.n,
            "embedder": args.embedder,
            "load_s": load_s,
            "target_ms": TARGET_MS,
            "pages": results,
        },
    )
    log(f"wrote {args.out}.md")


if __name__ == "__main__":
    main()
