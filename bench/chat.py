"""Chat proxy benchmark: what survives compaction, how often stage 4 calls the LLM, and the
proxy's own latency.

A LoCoMo conversation is recorded into a persona (sessions → episodes → notes, as a proxied chat
would be), then replayed as ONE long chat: every turn of speaker A is a user message, of speaker B
an assistant message, and a QA question is the last user message. For chat budgets of 2k, 4k and
8k tokens the request goes through PrepareStep and CompressStep (the service the route calls) and
we report

- the compaction ratio (tokens after / before);
- the share of QA evidence turns still in the prompt: verbatim in a kept message, in the
  ``[過去の会話要約]`` summary, or in the injected memories (≥ half of the turn's content words
  present counts as "in");

offline (extractive summary) and with a fake LLM summariser (an in-process stand-in that returns
the opening of each user line of the transcript it is given, cut to ``summary_max_chars``: it
measures the pipeline and the cache, not a model's summary quality). A growing chat (one request
per user turn) counts stage-4 LLM calls per request, which the prefix cache keeps low.

Overhead: a live server relays to the local fake upstream (tests/support/llm_fakes.py) that answers
at once; overhead = the proxied request's time − the median time of the same request sent to the
fake directly, p50/p95, with the configured embedder (default e5).

Modest by default: the first conversation, 30 questions (categories 1-4, evenly spaced), 100
overhead requests. ``--conversations``, ``--questions``, ``--requests`` change that.

    .venv/bin/python bench/chat.py [--data ../shared/bench/locomo] [--embedder e5]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "support"))  # the local fake upstream

from llm_fakes import FakeAPI, Reply, openai_answer, start_server  # noqa: E402

from _chat_report import report  # noqa: E402
from lib.cli import parser as bench_parser  # noqa: E402
from lib.datasets import LocomoConversation, load_conversations  # noqa: E402
from lib.fake_llm import FakeSummariser  # noqa: E402
from lib.metrics import contains_words, percentile  # noqa: E402
from lib.reports import emit, log, machine_info  # noqa: E402
from omoide.config import Settings  # noqa: E402
from omoide.engine.compact import (  # noqa: E402
    SUMMARY_PREFIX,
    message_text,
    request_tokens,
    split_turns,
)
from omoide.llm import LLMConfig  # noqa: E402
from omoide.llm.chat import make_chat_upstream  # noqa: E402
from omoide.wiring import Omoide, build  # noqa: E402

BUDGETS = (2000, 4000, 8000)
PERSONA = "locomo"


def as_chat(conv: LocomoConversation) -> tuple[list[dict[str, Any]], dict[str, str]]:
    messages: list[dict[str, Any]] = [
        {
            "role": "system",
            "content": f"You are {conv.speaker_b}, chatting with your friend {conv.speaker_a}.",
        }
    ]
    texts = {}
    for session in conv.sessions:
        for turn in session.turns:
            text = turn.render(with_speaker=False)
            texts[turn.dia_id] = text
            role = "user" if turn.speaker == conv.speaker_a else "assistant"
            if messages[-1]["role"] == role:  # keep turns alternating: merge repeats
                messages[-1] = {**messages[-1], "content": messages[-1]["content"] + "\n" + text}
            else:
                messages.append({"role": role, "content": text})
    return messages, texts


def ingest(app: Omoide, conv: LocomoConversation) -> None:
    """Record every session as the proxy would, then let the workers segment and consolidate."""
    app.runner.start()
    base = datetime(2023, 1, 1, tzinfo=UTC)
    for session in conv.sessions:
        sid = f"s{session.number}"
        start = session.date_time.replace(tzinfo=UTC) if session.date_time else base
        app.sessions.open(PERSONA, session_id=sid, started_at=start.isoformat())
        events = [
            {
                "speaker": t.speaker,
                "content": t.render(with_speaker=False),
                "role": "user" if t.speaker == conv.speaker_a else "assistant",
                "external_id": t.dia_id,
                "timestamp": (start + timedelta(seconds=30 * i)).isoformat(),
            }
            for i, t in enumerate(session.turns)
        ]
        app.sessions.record(PERSONA, sid, events)
        app.sessions.end(PERSONA, sid)
    persona_id = app.store.get_persona(PERSONA).id
    while (c := app.jobs.counts(persona_id)).pending + c.running:
        time.sleep(0.5)
    app.runner.stop()


def survival(app: Omoide, conv: LocomoConversation, questions: int) -> list[dict[str, Any]]:
    messages, texts = as_chat(conv)
    qa = [q for q in conv.qa if q.category in (1, 2, 3, 4) and q.evidence]
    picked = [
        qa[round(i * (len(qa) - 1) / max(questions - 1, 1))] for i in range(min(questions, len(qa)))
    ]
    rows = [*baseline(messages, texts, picked)]
    for mode in ("offline", "fake-llm"):
        app.chat.compressor.llm = FakeSummariser() if mode == "fake-llm" else None
        for budget in BUDGETS:
            app.settings_service.update(PERSONA, {"chat_budget_tokens": budget})
            counts = {"verbatim": 0, "cut": 0, "summary": 0, "memory": 0, "lost": 0}
            ratios = []
            for q in picked:
                chat = [*messages, {"role": "user", "content": q.question}]
                prepared = app.chat.prepare(PERSONA, chat)
                done = app.chat.compress(PERSONA, prepared.messages).compaction
                ratios.append(done.tokens_after / done.tokens_before)
                # the summary closes the system message (engine/compact.py), the turns follow
                summary = message_text(done.messages[0]).partition(SUMMARY_PREFIX)[2]
                kept = [message_text(m) for m in done.messages[1:]]
                for dia in q.evidence:
                    text = texts.get(dia, "")
                    where = (
                        "verbatim"
                        if any(text and text in k for k in kept)
                        else "cut"
                        if any(contains_words(k, text) for k in kept)
                        else "summary"
                        if contains_words(summary, text)
                        else "memory"
                        if any(
                            contains_words(line, text) for line in prepared.prompt.text.splitlines()
                        )
                        else "lost"
                    )
                    counts[where] += 1
            total = sum(counts.values()) or 1
            rows.append(
                {
                    "mode": mode,
                    "budget": budget,
                    "questions": len(picked),
                    "evidence": total,
                    "ratio": round(statistics.mean(ratios), 4),
                    **{k: round(v / total, 3) for k, v in counts.items()},
                    "kept": round(1 - counts["lost"] / total, 3),
                }
            )
            log(f"{mode} {budget}: {rows[-1]}")
    return rows


def baseline(
    messages: list[dict[str, Any]], texts: dict[str, str], picked: Sequence[Any]
) -> list[dict[str, Any]]:
    """No Omoide: the client keeps the latest whole turns that fit the budget."""
    rows = []
    for budget in BUDGETS:
        kept_turns, ratios, counts = [], [], {"verbatim": 0, "lost": 0}
        for q in picked:
            chat = [*messages, {"role": "user", "content": q.question}]
            parts = split_turns(chat)
            kept_turns = []
            for turn in reversed(parts.turns):
                if request_tokens([*parts.head, *turn, *kept_turns]) > budget:
                    break
                kept_turns = [*turn, *kept_turns]
            ratios.append(request_tokens([*parts.head, *kept_turns]) / request_tokens(chat))
            kept = [message_text(m) for m in kept_turns]
            for dia in q.evidence:
                text = texts.get(dia, "")
                counts["verbatim" if any(text and text in k for k in kept) else "lost"] += 1
        total = sum(counts.values()) or 1
        rows.append(
            {
                "mode": "none (latest turns only)",
                "budget": budget,
                "questions": len(picked),
                "evidence": total,
                "ratio": round(statistics.mean(ratios), 4),
                "verbatim": round(counts["verbatim"] / total, 3),
                "cut": 0.0,
                "summary": 0.0,
                "memory": 0.0,
                "lost": round(counts["lost"] / total, 3),
                "kept": round(counts["verbatim"] / total, 3),
            }
        )
    return rows


def growing(app: Omoide, conv: LocomoConversation) -> dict[str, Any]:
    """One request per user turn of a growing chat at 4k: stage-4 LLM calls per request."""
    messages, _ = as_chat(conv)
    fake = FakeSummariser()
    app.chat.compressor.llm = fake
    app.settings_service.update(PERSONA, {"chat_budget_tokens": 4000})
    ends = [i + 1 for i, m in enumerate(messages) if m["role"] == "user"]
    summarised = 0
    for end in ends:
        summary = app.chat.compress(PERSONA, messages[:end]).summary
        summarised += summary in ("llm", "cached")
    return {
        "requests": len(ends),
        "requests_with_summary": summarised,
        "llm_calls": fake.calls,
        "llm_calls_per_summarised_request": round(fake.calls / max(summarised, 1), 3),
    }


def overhead(app: Omoide, conv: LocomoConversation, n: int) -> list[dict[str, Any]]:
    from omoide_testing import serve_in_thread

    from omoide.api.http.app import create_app

    fake = FakeAPI()
    http, _ = start_server(fake)
    cfg = LLMConfig(provider="openai", base_url=f"{fake.base}/v1", model="fake", timeout_s=30)
    app.chat_upstream = make_chat_upstream(cfg)
    app.chat.compressor.llm = None
    admin = "omo_admin_chat-bench"
    app.auth.ensure_admin_key(app.settings.data_dir, admin)
    uv, thread, url = serve_in_thread(create_app(app, start_workers=False))
    messages, _ = as_chat(conv)
    questions = [q.question for q in conv.qa if q.category in (1, 2, 3, 4)]
    rows = []
    headers = {"Authorization": f"Bearer {admin}", "X-Omoide-Persona": PERSONA}
    with httpx.Client(timeout=60) as client:
        for label, history, budget in (
            ("20-turn chat", messages[-40:], 6000),
            ("whole conversation, 4k budget", messages, 4000),
        ):
            app.settings_service.update(PERSONA, {"chat_budget_tokens": budget})
            proxied, direct, pipeline = [], [], []
            for i in range(n + 5):
                body = {
                    "model": "x",
                    "messages": [
                        *history[:-1],
                        {"role": "user", "content": questions[i % len(questions)]},
                    ],
                }
                fake.queue(Reply(body=openai_answer("ok")), Reply(body=openai_answer("ok")))
                t0 = time.perf_counter()
                reply = client.post(f"{url}/v1/chat/completions", json=body, headers=headers)
                t1 = time.perf_counter()
                client.post(f"{fake.base}/v1/chat/completions", json=fake.bodies[-1])
                t2 = time.perf_counter()
                assert reply.status_code == 200, reply.text
                if i >= 5:  # warm-up
                    timing = reply.headers["server-timing"]
                    pipeline.append(float(timing.split("dur=")[1]))
                    proxied.append((t1 - t0) * 1000)
                    direct.append((t2 - t1) * 1000)
            embed = []
            for i in range(n):  # the query embedding alone, the same questions
                t0 = time.perf_counter()
                app.embedder.embed_query(questions[i % len(questions)])
                embed.append((time.perf_counter() - t0) * 1000)
            base = statistics.median(direct)
            added = [p - base for p in proxied]
            rows.append(
                {
                    "case": label,
                    "requests": n,
                    "overhead_p50_ms": round(percentile(added, 50), 1),
                    "overhead_p95_ms": round(percentile(added, 95), 1),
                    "pipeline_p50_ms": round(percentile(pipeline, 50), 1),
                    "pipeline_p95_ms": round(percentile(pipeline, 95), 1),
                    "embed_p50_ms": round(percentile(embed, 50), 1),
                    "embed_p95_ms": round(percentile(embed, 95), 1),
                    "upstream_direct_p50_ms": round(base, 1),
                }
            )
            log(f"overhead {label}: {rows[-1]}")
    uv.should_exit = True
    thread.join(10)
    http.shutdown()
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = bench_parser(__doc__, out="chat", data="locomo")
    parser.add_argument("--conversations", type=int, default=1)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--embedder", default="e5")
    parser.add_argument(
        "--reuse",
        type=Path,
        default=None,
        help="data folder to keep the ingested conversation in (and reuse)",
    )
    args = parser.parse_args(argv)
    convs = load_conversations(args.data)[: args.conversations]
    info = machine_info()
    results: dict[str, Any] = {
        "machine": info,
        "embedder": args.embedder,
        "survival": [],
        "growing": [],
        "overhead": [],
    }
    for conv in convs:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.reuse / conv.sample_id if args.reuse else Path(tmp)
            fresh = not (folder / "omoide.db").exists()
            settings = Settings.from_env({}, data_dir=folder, embedder=args.embedder)
            app = build(settings, llm=None, chat_upstream=None)
            if fresh:
                app.auth.create_persona(PERSONA)
                started = time.perf_counter()
                ingest(app, conv)
                log(
                    f"conversation {conv.sample_id}: ingested in "
                    f"{time.perf_counter() - started:.0f}s"
                )
            for row in survival(app, conv, args.questions):
                results["survival"].append({"conversation": conv.sample_id, **row})
            results["growing"].append({"conversation": conv.sample_id, **growing(app, conv)})
            for row in overhead(app, conv, args.requests):
                results["overhead"].append({"conversation": conv.sample_id, **row})
            app.close()
    emit(args, report(results), results)


if __name__ == "__main__":
    main()
