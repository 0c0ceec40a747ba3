"""Evolution links per memory by language, and search after evolution, for a length rule.

Each memory of a retrieval set is written in the set's order, one day apart (the store's insert
with its passage vector, as ``bench/retrieval.py`` indexes: dedup is bypassed because the sets
hold deliberate near-duplicates), and evolved at once by the server's ``EvolutionService`` (the
job a write queues: links, access and ``summary_ref`` for its neighbours, 3-op classification).
Thirty days after the last memory every query runs through ``SearchService.search`` (hybrid,
default plan), so a neighbour's refreshed ``last_accessed`` — the one way evolution reaches
ranking: its strength, blended into the score by ``importance_weight`` — shows in the ranks.
Links themselves are not read by search.

Two runs per set and embedder, which differ only in how ``evolution_min_chars`` (30) measures a
memory: ``chars`` (``len``, the rule before session 31) and ``columns``
(``engine.width.text_columns``: a wide character counts two, the server's rule). Reported: links
each new memory made, per memory, by language (a memory is ``ja`` when it holds a kana or kanji),
the share of memories that linked nothing because they were too short, and MRR / R@1 / R@10.

    .venv/bin/python bench/evolution_links.py [--data PATH ...] [--embedder e5|use]
        [--json] [--out PATH]
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from lib.cli import parser
from lib.datasets import RetrievalSet, load_retrieval_set
from lib.metrics import first_rank, rank_summary
from lib.reports import command_line, emit, md_table, shown_path
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.fsrs import initial_stability
from omoide.engine.lang import has_cjk
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.engine.width import text_columns
from omoide.wiring import build

RULES = {"chars": len, "columns": text_columns}
START = datetime(2026, 1, 1, tzinfo=UTC)
PERSONA = "bench"


def run(embedder: Any, data: RetrievalSet, rule: str, vectors: Any = None) -> dict[str, Any]:
    """Write and evolve every memory of ``data`` under ``rule``; links made and search ranks.
    ``vectors``: the memories' passage vectors, when already embedded."""
    clock = FixedClock(START)
    if vectors is None:
        vectors = embedder.embed_passages(list(data.memories.values()))
    made: dict[str, list[int]] = {"en": [], "ja": []}
    short: dict[str, int] = {"en": 0, "ja": 0}
    with (
        tempfile.TemporaryDirectory() as tmp,
        mock.patch("omoide.service.evolution.text_columns", RULES[rule]),
    ):
        app = build(
            Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None, clock=clock
        )
        app.auth.create_persona(PERSONA)
        store = app.store.memories(PERSONA)
        minimum = app.evolution.settings.get(PERSONA).evolution_min_chars
        key_to_id = {}
        for (set_id, content), vector in zip(data.memories.items(), vectors, strict=True):
            clock.advance(days=1)
            memory = store.insert(
                app.memories.build_new(content=content),
                vector=vector,
                stability=initial_stability(0.0),
                now=clock.now(),
            )
            key_to_id[memory.key] = set_id
            app.evolution.evolve(PERSONA, memory.key)
            lang = "ja" if has_cjk(content) else "en"
            made[lang].append(len(app.memories.links(PERSONA, memory.key)))
            short[lang] += RULES[rule](content) < minimum
        clock.advance(days=30)
        ranks = []
        for q in data.queries:
            request = app.search.build_request(
                PERSONA, query=q.query, top_k=10, mode="hybrid", include_episodes=False
            )
            hits = app.search.search(PERSONA, request, recall=False, plan=DEFAULT_PLAN).results
            ranks.append(first_rank([key_to_id.get(h.id) for h in hits], q.relevant))
        app.close()
    return {
        "links": {
            lang: {"memories": len(n), "links": sum(n), "short": short[lang]}
            for lang, n in made.items()
        },
        "search": rank_summary(ranks),
    }


def report(results: dict[str, Any]) -> str:
    rows, total = [], {}
    for name, by_rule in results["sets"].items():
        for rule, res in by_rule.items():
            links, search = res["links"], res["search"]
            cells = []
            for lang in ("en", "ja"):
                n = links[lang]
                acc = total.setdefault((rule, lang), {"memories": 0, "links": 0, "short": 0})
                for k in acc:
                    acc[k] += n[k]
                cells += [
                    f"{n['links'] / max(1, n['memories']):.2f}",
                    f"{n['short'] / max(1, n['memories']):.0%}",
                ]
            rows.append(
                [
                    name,
                    rule,
                    *cells,
                    f"{search['mrr']:.3f}",
                    f"{search['r@1']:.2f}",
                    f"{search['r@10']:.2f}",
                ]
            )
    header = [
        "set",
        "rule",
        "EN links/memory",
        "EN too short",
        "JA links/memory",
        "JA too short",
        "MRR",
        "R@1",
        "R@10",
    ]
    sums = [
        [
            rule,
            lang,
            str(t["memories"]),
            f"{t['links'] / max(1, t['memories']):.3f}",
            f"{t['short'] / max(1, t['memories']):.1%}",
        ]
        for (rule, lang), t in sorted(total.items())
    ]
    return "\n".join(
        [
            f"# Evolution links by language and search after evolution ({results['embedder']})",
            "",
            f"Command: `{command_line()}`. Data: {', '.join(results['data'])}.",
            "",
            "Memories written one day apart and evolved as written; queries 30 days after the last "
            "(hybrid, default plan). `chars`: `evolution_min_chars` counted with `len` (before); "
            "`columns`: a wide character counts two (`engine.width.text_columns`, the server's "
            "rule). Links/memory: SEMANTIC links each new memory made. Too short: share of "
            "memories under the minimum (they link nothing).",
            "",
            md_table(header, rows),
            "",
            "All sets:",
            "",
            md_table(["rule", "lang", "memories", "links/memory", "too short"], sums),
            "",
            f"Took {results['seconds']:.0f} s.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out=None)
    bench.add_argument("--data", type=Path, nargs="+", required=True)
    bench.add_argument("--embedder", default="e5", choices=["e5", "use"])
    args = bench.parse_args(argv)
    if args.out is None:
        args.out = Path(__file__).parent / "results" / f"evolution_links_{args.embedder}"
    started = time.perf_counter()
    embedder = make_embedder(args.embedder)
    sets: dict[str, Any] = {}
    for path in args.data:
        data = load_retrieval_set(path)
        vectors = embedder.embed_passages(list(data.memories.values()))
        sets[path.stem if path.stem != "dev" else path.parent.name] = {
            rule: run(embedder, data, rule, vectors) for rule in RULES
        }
        print(f"{path}: done at {time.perf_counter() - started:.0f} s", file=sys.stderr)
    results = {
        "embedder": embedder.model_id,
        "data": [shown_path(p) for p in args.data],
        "sets": sets,
        "seconds": time.perf_counter() - started,
    }
    emit(args, report(results), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
