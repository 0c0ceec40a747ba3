"""The markdown report of ``bench/chat.py`` (which see)."""

from __future__ import annotations

from typing import Any

from lib.reports import md_table


def report(r: dict[str, Any]) -> str:
    survival = md_table(
        [
            "conv",
            "summary",
            "budget",
            "questions",
            "evidence turns",
            "tokens after/before",
            "verbatim",
            "cut (≥ half)",
            "in summary",
            "in memories",
            "kept (any)",
        ],
        [
            [
                s["conversation"],
                s["mode"],
                s["budget"],
                s["questions"],
                s["evidence"],
                s["ratio"],
                s["verbatim"],
                s["cut"],
                s["summary"],
                s["memory"],
                s["kept"],
            ]
            for s in r["survival"]
        ],
    )
    growing = md_table(
        ["conv", "requests", "with a summary", "LLM calls", "calls / request"],
        [
            [
                g["conversation"],
                g["requests"],
                g["requests_with_summary"],
                g["llm_calls"],
                g["llm_calls_per_summarised_request"],
            ]
            for g in r["growing"]
        ],
    )
    over = md_table(
        [
            "conv",
            "case",
            "requests",
            "overhead p50 ms",
            "overhead p95 ms",
            "pipeline p50 ms",
            "pipeline p95 ms",
            "query embedding p50 / p95 ms",
            "upstream alone p50 ms",
        ],
        [
            [
                o["conversation"],
                o["case"],
                o["requests"],
                o["overhead_p50_ms"],
                o["overhead_p95_ms"],
                o["pipeline_p50_ms"],
                o["pipeline_p95_ms"],
                f"{o['embed_p50_ms']} / {o['embed_p95_ms']}",
                o["upstream_direct_p50_ms"],
            ]
            for o in r["overhead"]
        ],
    )
    m = r["machine"]
    return "\n".join(
        [
            "# Chat proxy benchmark (`bench/chat.py`)",
            "",
            f"Revision {m['revision']}, {m['cpus']} CPUs, load {m['load_average']}, embedder "
            f"`{r['embedder']}`, command `{m['command']}`.",
            "",
            "## What survives compaction",
            "",
            "The LoCoMo conversation replayed as one chat (plus the question), through PrepareStep "
            "and CompressStep. An evidence turn counts as kept when it is verbatim in a kept "
            "message, or at least half of its content words are in one kept message that stages "
            "1-3 cut, in the summary or in one injected memory line (each turn counted once, in "
            "that "
            "order). `fake-llm` is a stand-in summariser (the opening of each line), not a model. "
            "`none` is a client without Omoide keeping the latest whole turns that fit.",
            "",
            survival,
            "",
            "## Stage-4 calls in a growing chat (4k budget, fake LLM)",
            "",
            growing,
            "",
            "## Proxy overhead (upstream excluded)",
            "",
            "Overhead: the proxied request's time minus the median time of the same request sent "
            "to the fake upstream directly (client, server and fake share one process here). "
            "Pipeline: the server's own PrepareStep + CompressStep time (`Server-Timing`). The "
            "query embedding, timed alone, is most of it; all of it scales with the machine's "
            "load (see the load average above; 2 cores shared).",
            "",
            over,
            "",
        ]
    )
