"""session_begin latency, and what its context holds of the conversations it just ended.

A persona has ``--sessions`` open sessions of ``--turns`` turns each (LoCoMo turns: the first
speaker is the user, the second the persona), posted over HTTP with the background work drained
(as in a real conversation, where the turns' segmentation runs while it goes on), never ended.
Then ``POST /api/context/{persona}/session`` is timed: it ends those sessions (queueing their
final segmentation and consolidation) and returns the context. Reported per trial: its latency,
the share of the ended sessions' user turns whose words the context shows, and how long the
queued work took to drain afterwards (the window in which, before the change of issue 8, what was
just said was in no context). Each trial uses a fresh persona; the server is a real ``omoide
serve`` process (``--src DIR`` serves another source tree, e.g. an export of an older commit).

    PYTHONPATH=src .venv/bin/python bench/session_begin_latency.py --trials 12
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from lib.cli import parser as bench_parser
from lib.datasets import load_conversations
from lib.harness import local_server
from lib.metrics import percentile
from lib.reports import emit, log, machine_info, md_table


def drain(c: httpx.Client, persona: str, limit_s: float = 600.0) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        counts = c.get(f"/api/jobs/{persona}").json()
        if counts["pending"] + counts["running"] == 0:
            return time.perf_counter() - started
        time.sleep(0.05)
    raise RuntimeError(f"jobs of {persona} not drained in {limit_s} s")


def chats(data: Path, sessions: int, turns: int, trials: int) -> list[list[list[dict[str, Any]]]]:
    """Per trial, ``sessions`` chats of ``turns`` consecutive LoCoMo turns (never the same turns
    twice)."""
    pool = []
    for conv in load_conversations(data):
        rows = [
            {
                "speaker": t.speaker,
                "content": t.text,
                "role": "user" if t.speaker == conv.speaker_a else "assistant",
            }
            for t in conv.turns()
            if t.text.strip()
        ]
        pool += [rows[i : i + turns] for i in range(0, len(rows) - turns + 1, turns)]
    need = sessions * trials
    if len(pool) < need:
        raise SystemExit(f"only {len(pool)} chats of {turns} LoCoMo turns; need {need}")
    return [pool[i * sessions : (i + 1) * sessions] for i in range(trials)]


def shown_share(text: str, chat: list[list[dict[str, Any]]]) -> float:
    """The share of the chats' user turns whose first 40 characters the context shows."""
    said = [t["content"][:40] for rows in chat for t in rows if t["role"] == "user"]
    return sum(1 for s in said if s in text) / max(len(said), 1)


def shown_keys(context: dict[str, Any]) -> set[str]:
    sections = context["sections"]
    return {m["key"] for name in ("recent_memories", "important_memories") for m in sections[name]}


def run(args: argparse.Namespace) -> dict[str, Any]:
    admin = "omo_admin_" + secrets.token_urlsafe(24)
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="omoide-begin-") as tmp,
        local_server(Path(tmp) / "data", args.embedder, admin, src=args.src) as url,
        httpx.Client(base_url=url, timeout=600) as c,
    ):
        for n, chat in enumerate(chats(args.data, args.sessions, args.turns, args.trials)):
            persona = f"p{n}"
            key = c.post(
                "/api/personas",
                json={"name": persona},
                headers={"Authorization": f"Bearer {admin}"},
            ).json()["api_key"]
            auth = {"Authorization": f"Bearer {key}"}
            sids = []
            for session in chat:
                sid = c.post(f"/api/sessions/{persona}", json={}, headers=auth).json()["session_id"]
                sids.append(sid)
                c.post(
                    f"/api/sessions/{persona}/{sid}/events", json={"events": session}, headers=auth
                ).raise_for_status()
            c.headers.update(auth)
            drain(c, persona)
            started = time.perf_counter()
            reply = c.post(f"/api/context/{persona}/session")
            begin_ms = (time.perf_counter() - started) * 1000
            reply.raise_for_status()
            body = reply.json()
            window_s = drain(c, persona)
            after = c.get(f"/api/context/{persona}").json()
            notes = {
                k
                for sid in sids
                for ep in c.get(f"/api/sessions/{persona}/{sid}/episodes").json()["episodes"]
                for k in ep["notes"]
            }
            rows.append(
                {
                    "trial": n,
                    "begin_ms": round(begin_ms, 1),
                    "tokens": body["tokens"],
                    "shown": round(shown_share(body["text"], chat), 3),
                    "drain_s": round(window_s, 2),
                    "shown_after_drain": round(shown_share(after["text"], chat), 3),
                    "notes": len(notes),
                    "notes_shown_after_drain": len(notes & shown_keys(after)),
                }
            )
            log(f"trial {n}: {rows[-1]}")
    times = [r["begin_ms"] for r in rows[args.warmup :]]
    summary = {
        "n": len(times),
        "p50_ms": round(percentile(times, 50), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "max_ms": round(max(times), 1),
        "shown_mean": round(sum(r["shown"] for r in rows) / len(rows), 3),
        "drain_s_p50": round(percentile([r["drain_s"] for r in rows], 50), 2),
    }
    return {
        "machine": machine_info(),
        "embedder": args.embedder,
        "src": args.src_label or str(args.src),
        "sessions": args.sessions,
        "turns": args.turns,
        "summary": summary,
        "trials": rows,
    }


def markdown(report: dict[str, Any]) -> str:
    s = report["summary"]
    head = (
        f"# session_begin latency ({report['src']}, {report['embedder']}, "
        f"{report['sessions']} open sessions × {report['turns']} turns)\n\n"
        f"p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, max {s['max_ms']} ms over {s['n']} "
        f"trials; user turns shown in the returned context: {s['shown_mean']:.0%}; "
        f"background work drained {s['drain_s_p50']} s (p50) after the call.\n\n"
    )
    return head + md_table(
        [
            "trial",
            "begin ms",
            "tokens",
            "user turns shown",
            "drain s",
            "turns shown after drain",
            "notes made",
            "notes shown after drain",
        ],
        [
            [
                r["trial"],
                r["begin_ms"],
                r["tokens"],
                r["shown"],
                r["drain_s"],
                r["shown_after_drain"],
                r["notes"],
                r["notes_shown_after_drain"],
            ]
            for r in report["trials"]
        ],
    )


def main() -> None:
    p = bench_parser(__doc__, out="session_begin_latency", data="locomo")
    p.add_argument("--embedder", default="e5")
    p.add_argument("--sessions", type=int, default=2)
    p.add_argument("--turns", type=int, default=30)
    p.add_argument("--trials", type=int, default=12)
    p.add_argument("--warmup", type=int, default=2, help="Trials left out of the percentiles.")
    p.add_argument(
        "--src",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="The source tree to serve (default: this one).",
    )
    p.add_argument("--src-label", default=None)
    args = p.parse_args()
    if args.trials <= args.warmup:
        p.error(f"--trials ({args.trials}) must be more than --warmup ({args.warmup})")
    report = run(args)
    emit(args, markdown(report), report)


if __name__ == "__main__":
    main()
