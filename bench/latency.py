"""End-to-end latency of a real ``omoide serve`` as a client sees it, over HTTP, on SQLite.

Each phase starts the server (``--src`` tree, default this one, default embedder e5) on a
temporary data folder and times what a user waits for:

- start: process start to the first ``/health`` answer, and to the first search answered (the
  embedder loaded and a query embedded);
- writes (on the folder of ``--sizes``' first size): ``POST /api/memories`` p50/p95 over
  ``--writes`` memories not yet stored, then the time until their background jobs (evolution)
  are done (``GET /api/jobs/{p}/wait``);
- search: ``GET /api/search`` p50/p95, English and Japanese (``lib.synthetic.SEARCH_QUERIES``,
  each ``--repeats`` times: the first search of each query and its repeats reported apart),
  at each of ``--sizes`` memories in one persona;
- conversation: ``POST …/events`` one turn per request (LoCoMo turns), p50/p95, then
  ``POST …/end`` and the time until its episodes and notes are made (the queue drained), per
  session of ``--turns`` turns;
- CLI: ``omoide memory add`` wall time (process start to exit) on the largest folder, the
  server stopped.

The persona's memories are people's texts (``real_memory_texts``: LoCoMo observations and the
Japanese retrieval corpus) topped up with the seeded synthetic corpus' English and Japanese
texts, embedded with the real embedder once (kept in ``--cache``) and loaded through
``MemoryStore.insert_many`` before the server starts (as ``core.py`` loads), so the index and
the vectors are real while a 5k persona does not take an hour of writes to build.

    PYTHONPATH=src .venv/bin/python bench/latency.py --out bench/results/latency_s31
    PYTHONPATH=src .venv/bin/python bench/latency.py --src /tmp/before --src-label before
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

from lib.cli import DATA_ROOT
from lib.cli import parser as bench_parser
from lib.datasets import load_conversations, real_memory_texts
from lib.harness import local_server
from lib.metrics import percentile
from lib.reports import command_line, emit, load_average, log, machine_info, md_table
from lib.synthetic import NOW, SEARCH_QUERIES, SyntheticCorpus

PERSONA = "bench"
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def is_japanese(text: str) -> bool:
    return bool(_JAPANESE.search(text))


def corpus_texts(data: Path, n: int) -> list[str]:
    """``n`` distinct memory texts: people's first, then the synthetic corpus' (seeded)."""
    texts = list(dict.fromkeys(real_memory_texts(data)))
    synthetic = SyntheticCorpus(8, seed=11)
    while len(texts) < n:
        news, _, _ = synthetic.batch(500)
        texts = list(dict.fromkeys([*texts, *(m.content for m in news)]))
    return texts[:n]


def load_persona(data_dir: Path, embedder: str, texts: Sequence[str], cache: Path) -> float:
    """Add ``texts`` to the persona (made by the first server) with ``insert_many``; seconds."""
    from lib.embed_cache import cached_embeddings
    from lib.harness import open_app
    from omoide.engine.fsrs import initial_stability
    from omoide.model.memory import NewMemory

    app = open_app(data_dir, embedder)
    try:
        vectors = cached_embeddings(app.embedder, list(texts), cache)
        started = time.perf_counter()
        news = [NewMemory(content=t, tags=("bench",)) for t in texts]
        app.store.memories(PERSONA).insert_many(
            news, vectors, stabilities=[initial_stability(0.0)] * len(news), now=NOW
        )
        return time.perf_counter() - started
    finally:
        app.close()


def timed_ms(call: Callable[[], httpx.Response]) -> float:
    started = time.perf_counter()
    reply = call()
    took = (time.perf_counter() - started) * 1000
    if reply.status_code >= 400:
        raise RuntimeError(
            f"{reply.request.method} {reply.request.url.path} → "
            f"{reply.status_code}: {reply.text[:300]}"
        )
    return took


def stats(samples: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(samples),
        "p50": round(percentile(samples, 50), 1),
        "p95": round(percentile(samples, 95), 1),
    }


def wait_jobs(c: httpx.Client, persona: str) -> float:
    """Seconds until the persona's queue is empty."""
    started = time.perf_counter()
    while not c.get(f"/api/jobs/{persona}/wait", params={"timeout": 600}).json()["drained"]:
        pass
    return time.perf_counter() - started


def start_server(
    args: argparse.Namespace, data_dir: Path, admin: str
) -> tuple[Any, httpx.Client, dict[str, float]]:
    """The server, a client with the persona's key (the persona made when new) and its start
    times: to ``/health`` and to the first search answered."""
    started = time.perf_counter()
    server = local_server(data_dir, args.embedder, admin, src=args.src)
    url = server.__enter__()
    health_s = time.perf_counter() - started
    c = httpx.Client(base_url=url, timeout=600, headers={"Authorization": f"Bearer {admin}"})
    names = {p["name"] for p in c.get("/api/personas").json()["personas"]}
    if PERSONA not in names:
        c.post("/api/personas", json={"name": PERSONA}).raise_for_status()
    c.get(f"/api/search/{PERSONA}", params={"q": "hello"}).raise_for_status()
    return (
        server,
        c,
        {"health_s": round(health_s, 2), "first_search_s": round(time.perf_counter() - started, 2)},
    )


def stop_server(server: Any, c: httpx.Client) -> None:
    c.close()
    server.__exit__(None, None, None)


def bench_search(c: httpx.Client, repeats: int) -> dict[str, Any]:
    """Per language, the first search of each query (``en``, ``ja``: nothing of it embedded
    yet) and the same queries searched again (``en_again``, ``ja_again``)."""
    samples: dict[str, list[float]] = {"en": [], "ja": [], "en_again": [], "ja_again": []}
    for repeat in range(repeats):
        for query in SEARCH_QUERIES:
            took = timed_ms(lambda q=query: c.get(f"/api/search/{PERSONA}", params={"q": q}))
            lang = "ja" if is_japanese(query) else "en"
            samples[lang if repeat == 0 else f"{lang}_again"].append(took)
    return {name: stats(v) for name, v in samples.items() if v}


def bench_writes(c: httpx.Client, texts: Sequence[str]) -> dict[str, Any]:
    c.get(f"/api/jobs/{PERSONA}/wait", params={"timeout": 600})
    took = [
        timed_ms(lambda t=t: c.post(f"/api/memories/{PERSONA}", json={"content": t})) for t in texts
    ]
    return {"post": stats(took), "jobs_done_s": round(wait_jobs(c, PERSONA), 2)}


def chat_sessions(data: Path, n: int, turns: int) -> list[list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    for conv in load_conversations(data / "locomo")[:2]:
        rows += [
            {
                "speaker": t.speaker,
                "content": t.text,
                "role": "user" if t.speaker == conv.speaker_a else "assistant",
            }
            for t in conv.turns()
            if t.text.strip()
        ]
    return [rows[i * turns : (i + 1) * turns] for i in range(n)]


def bench_conversation(c: httpx.Client, data: Path, sessions: int, turns: int) -> dict[str, Any]:
    persona = "chat"
    c.post("/api/personas", json={"name": persona}).raise_for_status()
    posts: list[float] = []
    ends: list[float] = []
    ready: list[float] = []
    episodes = notes = 0
    for chat in chat_sessions(data, sessions, turns):
        sid = c.post(f"/api/sessions/{persona}", json={}).json()["session_id"]
        for turn in chat:
            posts.append(
                timed_ms(
                    lambda t=turn, s=sid: c.post(
                        f"/api/sessions/{persona}/{s}/events", json={"events": [t]}
                    )
                )
            )
        wait_jobs(c, persona)  # the turns' own work, as during a conversation
        started = time.perf_counter()
        ends.append(timed_ms(lambda s=sid: c.post(f"/api/sessions/{persona}/{s}/end")))
        wait_jobs(c, persona)
        ready.append(time.perf_counter() - started)
        made = c.get(f"/api/sessions/{persona}/{sid}/episodes").json()["episodes"]
        episodes += len(made)
        notes += sum(len(e["notes"]) for e in made)
    return {
        "post_event": stats(posts),
        "end": stats(ends),
        "end_to_ready_s": {
            "n": len(ready),
            "p50": round(percentile(ready, 50), 2),
            "max": round(max(ready), 2),
        },
        "episodes": episodes,
        "notes": notes,
    }


def bench_cli(args: argparse.Namespace, data_dir: Path, texts: Sequence[str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMOIDE_")}
    env.update(
        OMOIDE_EMBEDDER=args.embedder, OMOIDE_LLM_PROVIDER="none", PYTHONPATH=str(args.src / "src")
    )
    walls = []
    for text in texts:
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from omoide.cli import main; main()",
                "memory",
                "add",
                "--data",
                str(data_dir),
                "-p",
                PERSONA,
                text,
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        walls.append(time.perf_counter() - started)
    return {
        "n": len(walls),
        "p50_s": round(percentile(walls, 50), 2),
        "min_s": round(min(walls), 2),
        "max_s": round(max(walls), 2),
    }


def compiled_bytecode(args: argparse.Namespace) -> None:
    """Serve from compiled bytecode, as an installed package is: the server's and the CLI's
    modules compiled once into ``--cache``/pycache (``PYTHONPYCACHEPREFIX``; the source tree is
    not written), so no timed start pays for compiling sources."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str((args.cache / "pycache").resolve())
    subprocess.run(
        [sys.executable, "-c", "import omoide.api.http.server, omoide.cli"],
        env={**os.environ, "PYTHONPATH": str(args.src / "src")},
        check=True,
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    pool = corpus_texts(args.data, sizes[-1] + args.writes + args.cli)
    stored, fresh = pool[: sizes[-1]], pool[sizes[-1] :]
    writes, cli_texts = fresh[: args.writes], fresh[args.writes :]
    admin = "omo_admin_" + secrets.token_urlsafe(24)
    compiled_bytecode(args)
    report: dict[str, Any] = {
        "machine": machine_info(),
        "command": command_line(),
        "src": args.src_label or str(args.src),
        "embedder": args.embedder,
        "sizes": {},
    }
    with tempfile.TemporaryDirectory(prefix="omoide-latency-") as tmp:
        data_dir = Path(tmp) / "data"
        log("start on an empty folder")
        server, c, report["start_empty"] = start_server(args, data_dir, admin)
        report["conversation"] = bench_conversation(c, args.data, args.sessions, args.turns)
        log(f"conversation: {report['conversation']}")
        stop_server(server, c)
        have = 0
        for size in sizes:
            log(f"loading to {size} memories")
            load_s = load_persona(data_dir, args.embedder, stored[have:size], args.cache)
            have = size
            server, c, start = start_server(args, data_dir, admin)
            row: dict[str, Any] = {
                "load_s": round(load_s, 1),
                "start": start,
                "load_average": load_average(),
            }
            if size == sizes[0]:
                row["writes"] = bench_writes(c, writes)
            row["search"] = bench_search(c, args.repeats)
            log(f"{size}: {row}")
            report["sizes"][str(size)] = row
            stop_server(server, c)
        report["cli_memory_add"] = bench_cli(args, data_dir, cli_texts)
        log(f"cli: {report['cli_memory_add']}")
    return report


def markdown(r: dict[str, Any]) -> str:
    conv = r["conversation"]
    lines = [
        f"# End-to-end latency ({r['src']}, {r['embedder']}, SQLite)",
        "",
        f"`{r['command']}`",
        "",
        f"Machine: {r['machine']}",
        "",
        f"Server start on an empty folder: /health {r['start_empty']['health_s']} s, first "
        f"search answered {r['start_empty']['first_search_s']} s.",
        "",
    ]
    rows = []
    for size, row in r["sizes"].items():
        s = row["search"]
        again = [
            s.get(f"{lang}_again", {}).get(q, "–") for lang in ("en", "ja") for q in ("p50", "p95")
        ]
        rows.append(
            [
                size,
                row["start"]["health_s"],
                row["start"]["first_search_s"],
                s["en"]["p50"],
                s["en"]["p95"],
                s["ja"]["p50"],
                s["ja"]["p95"],
                *again,
                " ".join(f"{x:.1f}" for x in row["load_average"]),
            ]
        )
    lines += [
        md_table(
            [
                "memories",
                "start → /health s",
                "start → first search s",
                "search EN p50 ms",
                "EN p95",
                "search JA p50 ms",
                "JA p95",
                "EN again p50",
                "p95",
                "JA again p50",
                "p95",
                "load avg",
            ],
            rows,
        ),
        "",
        "Search: each query's first search (EN, JA: neither the query nor its candidates "
        "embedded before), then the same queries searched again (again).",
        "",
    ]
    first = next(iter(r["sizes"].values()))
    if "writes" in first:
        w = first["writes"]
        lines += [
            f"`POST /api/memories` at {next(iter(r['sizes']))} memories: p50 "
            f"{w['post']['p50']} ms, p95 {w['post']['p95']} ms over {w['post']['n']}; "
            f"their background jobs done {w['jobs_done_s']} s after the last.",
            "",
        ]
    lines += [
        f"Conversation: `POST …/events` (one turn) p50 {conv['post_event']['p50']} ms, p95 "
        f"{conv['post_event']['p95']} ms over {conv['post_event']['n']}; `…/end` p50 "
        f"{conv['end']['p50']} ms; end → episodes and notes ready p50 "
        f"{conv['end_to_ready_s']['p50']} s (max {conv['end_to_ready_s']['max']} s; "
        f"{conv['episodes']} episodes, {conv['notes']} notes).",
        "",
        f"`omoide memory add` wall time at {list(r['sizes'])[-1]} memories: p50 "
        f"{r['cli_memory_add']['p50_s']} s (min {r['cli_memory_add']['min_s']}, max "
        f"{r['cli_memory_add']['max_s']}) over {r['cli_memory_add']['n']} runs.",
    ]
    return "\n".join(lines)


def main() -> None:
    p = bench_parser(__doc__, out="latency", data=DATA_ROOT)
    p.add_argument("--embedder", default="e5")
    p.add_argument("--sizes", default="1000,5000")
    p.add_argument("--repeats", type=int, default=3, help="Each search query's repeats.")
    p.add_argument("--writes", type=int, default=30)
    p.add_argument("--sessions", type=int, default=3)
    p.add_argument("--turns", type=int, default=20)
    p.add_argument("--cli", type=int, default=3, help="omoide memory add runs.")
    p.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "omoide-bench-latency-vectors",
        help="Where the corpus' vectors are kept between runs.",
    )
    p.add_argument(
        "--src",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="The source tree to serve (default: this one).",
    )
    p.add_argument("--src-label", default=None)
    args = p.parse_args()
    report = run(args)
    emit(args, markdown(report), report)


if __name__ == "__main__":
    main()
