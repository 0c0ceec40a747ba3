"""Why the search companion's best weight differs between the retrieval sets and LoCoMo (probe).

``record``: every query runs once through ``SearchService.search`` (hybrid, the default plan
at ``companion_weight`` 0.3, so the companion is asked) with the companion's ``rescore``
wrapped to keep what it sees: the fused head (id, fused score), the companion's (USE) raw
cosines, the primary's (e5) raw cosines of the same texts, and the head's texts. Retrieval
sets (notes only, top 10) and kept LoCoMo folders (the default search, top 50) are recorded;
nothing is written to the stores. ``analyse``: per query, properties a search could read
(query script, how far the head mixes scripts, how far the two embedders agree on the head,
candidate length, query length), and, for the retrieval sets, the head re-ranked offline
with ``engine.companion.blend_companion`` at each weight (MRR@10 of the head's order; the sets'
notes are of equal strength and never superseded, so the head's order is the result order),
by the language and the length of the note sought, and rules for a per-query weight (the
head's scripts, the two rankings' agreement, the length of the head's Latin-script notes, the
query's length) chosen by leave-one-set-out over the eight sets (``companion17.md``,
``companion18.md``).

    PYTHONPATH=src python bench/companion_property.py record-retrieval --out F
    PYTHONPATH=src python bench/companion_property.py record-locomo DIR --now ISO --out F
    PYTHONPATH=src python bench/companion_property.py analyse --retrieval F [--locomo F]
        [--details LOCOMO_DETAILS] [--out bench/results/companion18_probe.md]
    PYTHONPATH=src python bench/companion_property.py sentences --retrieval F [--locomo F]
        [--out bench/results/companion19_probe.md]

``sentences`` (session 19): the recorded heads re-scored with the companion (USE) reading a note
of several sentences by its sentences (``engine.consolidate.split_sentences``: English and
Japanese sentence ends) — its cosine the best sentence's, the mean of the best two, a soft
maximum, or two mixes with the whole note's — by constant weight, by the note sought and by
leave-one-set-out; with ``--locomo`` also how many sentences LoCoMo's head notes have and what
reading them costs a 40-note head in time. Measured through prototype 3011ab8 (plan field
``companion_sentences``, the same readings in ``service.companion``) and removed after
(``companion19.md``); the readings live here now.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from lib.datasets import DEFAULT_LOCOMO_DIR, load_retrieval_set
from lib.harness import index_corpus, open_app
from lib.reports import REPO, command_line, md_table, write_markdown
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.companion import blend_companion
from omoide.engine.consolidate import split_sentences
from omoide.engine.fusion import Scored
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.store.vectors import language_of
from omoide.wiring import build

# the eight retrieval sets (all seen since session 18: F and G were session 17's and 18's
# blind sets)
SETS = {
    "dev": Path("/work/shared/bench/retrieval_ja/dev.jsonl"),
    **{x.upper(): REPO / "bench" / "data" / f"retrieval_holdout_{x}.jsonl" for x in "abcdefg"},
}
RECORD_PLAN = replace(DEFAULT_PLAN, companion_weight=0.3)


def _wrap(app: Any, sink: list[dict[str, Any]]) -> None:
    """Keep what the companion sees on each search (bench only: the instance's method)."""
    companion = app.search.companion
    original = companion.rescore

    def rescore(
        query: str, ranked: list[Scored], texts: Any, *, weight: float, pool: int
    ) -> list[Scored]:
        head = sorted(ranked, key=lambda s: (-s.score, s.id))[:pool]
        found: Mapping[int, str] = texts([s.id for s in head])
        use = companion.cosines(query, found)
        q = companion.vectors.query(app.embedder, query)
        vecs = companion.vectors.passages(app.embedder, found.values())
        e5 = {i: float(np.dot(q, vecs[t])) for i, t in found.items()}
        sink.append(
            {
                "query": query,
                "head": [[s.id, s.score] for s in head],
                "use": {str(k): v for k, v in use.items()},
                "e5": {str(k): v for k, v in e5.items()},
                "texts": {str(k): v for k, v in found.items()},
            }
        )
        return original(query, ranked, texts, weight=weight, pool=pool)

    companion.rescore = rescore  # type: ignore[method-assign]


def record_retrieval(out: Path) -> None:
    result: dict[str, Any] = {}
    for name, path in SETS.items():
        data = load_retrieval_set(path)
        embedder = make_embedder("e5")
        with tempfile.TemporaryDirectory() as tmp:
            app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
            index_corpus(app, "bench", data.memories, embedder)
            content = {text: key for key, text in data.memories.items()}
            sink: list[dict[str, Any]] = []
            _wrap(app, sink)
            queries = []
            for q in data.queries:
                before = len(sink)
                request = app.search.build_request(
                    "bench", query=q.query, top_k=10, mode="hybrid", include_episodes=False
                )
                app.search.search("bench", request, recall=False, plan=RECORD_PLAN)
                rec = sink[before] if len(sink) > before else None
                if rec is not None:
                    rec["relevant_rows"] = [
                        int(k) for k, t in rec["texts"].items() if content.get(t) in q.relevant
                    ]
                queries.append(
                    {"kind": q.kind, "query": q.query, "rec": rec, "n_relevant": len(q.relevant)}
                )
            app.close()
        result[name] = queries
        print(name, len(queries), flush=True)
    out.write_text(json.dumps(result))


def record_locomo(folder: Path, now: datetime, conversations: str, out: Path) -> None:
    from lib.datasets import load_conversations

    app = open_app(folder, None, now)
    names = [p.name for p in app.store.list_personas()]
    sink: list[dict[str, Any]] = []
    _wrap(app, sink)
    result: dict[str, Any] = {}
    wanted = set(conversations.split(","))
    for conv in load_conversations(DEFAULT_LOCOMO_DIR):
        if conv.sample_id not in wanted:
            continue
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        rows = []
        for qa in conv.qa:
            if qa.category not in (1, 2, 3, 4):
                continue
            before = len(sink)
            request = app.search.build_request(persona, query=qa.question, top_k=50)
            app.search.search(persona, request, recall=False, plan=RECORD_PLAN)
            rec = sink[before] if len(sink) > before else None
            rows.append({"query": qa.question, "category": qa.category, "rec": rec})
        result[conv.sample_id] = rows
        print(conv.sample_id, len(rows), flush=True)
    app.close()
    out.write_text(json.dumps(result))


# ---------------------------------------------------------------- analysis


def _rank_corr(a: list[float], b: list[float]) -> float:
    """Spearman correlation of two score lists (0 when either is constant)."""
    if len(a) < 3:
        return 0.0
    ra = np.argsort(np.argsort(-np.asarray(a))).astype(float)
    rb = np.argsort(np.argsort(-np.asarray(b))).astype(float)
    if ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


def properties(rec: dict[str, Any], query: str) -> dict[str, float]:
    head = rec["head"]
    ids = [str(i) for i, _ in head]
    texts = [rec["texts"].get(i, "") for i in ids]
    q_script = language_of(query)
    other = [language_of(t) != q_script for t in texts]
    use = [rec["use"].get(i, 0.0) for i in ids]
    e5 = [rec["e5"].get(i, 0.0) for i in ids]
    fused = [s for _, s in head]
    top10 = ids[:10]
    use_top = sorted(ids, key=lambda i: -rec["use"].get(i, 0.0))[:10]
    return {
        "query_cjk": float(q_script),
        "head_other_script": sum(other) / len(other) if other else 0.0,
        "top10_other_script": sum(other[:10]) / max(1, len(other[:10])),
        "agree_fused_use": _rank_corr(fused, use),
        "agree_e5_use": _rank_corr(e5, use),
        "overlap10": len(set(top10) & set(use_top)) / max(1, len(top10)),
        "head_chars": float(np.mean([len(t) for t in texts])) if texts else 0.0,
        "top10_chars": float(np.mean([len(t) for t in texts[:10]])) if texts else 0.0,
        "query_chars": float(len(query)),
        "use_spread": max(use) - min(use) if use else 0.0,
        "e5_spread": max(e5) - min(e5) if e5 else 0.0,
        "use_top": max(use) if use else 0.0,
        "head_size": float(len(head)),
        "top10_latin_words_median": float(np.median(latin_words(rec))) if latin_words(rec) else 0.0,
        "top10_long_latin_share": sum(
            not language_of(t) and len(t.split()) >= 20 for t in texts[:10]
        )
        / max(1, len(texts[:10])),
    }


def _order(rec: dict[str, Any], weight_of: Any) -> list[int]:
    """The head's ids best first after the blend; ``weight_of(text)`` is each candidate's
    weight. One weight for all is ``engine.companion.blend_companion`` itself; a weight per
    candidate is the same formula with ``w`` read per candidate (the rule tried below)."""
    head = [Scored(int(i), float(s)) for i, s in rec["head"]]
    cosines = {int(k): v for k, v in rec["use"].items()}
    silent = getattr(weight_of, "silent", None)
    if silent is not None:  # the companion has no opinion of these: the head's median cosine
        median = float(np.median(list(cosines.values())))
        cosines = {i: median if silent(rec["texts"][str(i)]) else c for i, c in cosines.items()}
    weights = {s.id: weight_of(rec["texts"][str(s.id)]) for s in head}
    if len(set(weights.values())) == 1:
        w = next(iter(weights.values()))
        ranked = (
            blend_companion(head, cosines, weight=w, top_n=len(head))
            if w
            else sorted(head, key=lambda s: (-s.score, s.id))
        )
        return [s.id for s in ranked]
    ordered = sorted(head, key=lambda s: (-s.score, s.id))
    low, high = ordered[-1].score, ordered[0].score
    c_low, c_high = min(cosines.values()), max(cosines.values())
    if high <= low or c_high <= c_low:
        return [s.id for s in ordered]
    rel = [
        (
            (1 - weights[s.id]) * (s.score - low) / (high - low)
            + weights[s.id] * (cosines.get(s.id, c_low) - c_low) / (c_high - c_low),
            s,
        )
        for s in ordered
    ]
    rel.sort(key=lambda p: (-p[0], -p[1].score, p[1].id))
    return [s.id for _, s in rel]


def reciprocal_rank(rec: dict[str, Any], weight_of: Any) -> float:
    """1/rank of the first relevant note in the blended head's first 10 (0 when none)."""
    relevant = set(rec.get("relevant_rows", []))
    for rank, row in enumerate(_order(rec, weight_of)[:10], 1):
        if row in relevant:
            return 1.0 / rank
    return 0.0


def cjk_share(rec: dict[str, Any], n: int = 10) -> float:
    """Share of the fused head's first ``n`` candidates written in a CJK script."""
    head = sorted(rec["head"], key=lambda x: (-x[1], x[0]))[:n]
    return sum(language_of(rec["texts"][str(i)]) for i, _ in head) / max(1, len(head))


def sought_group(rec: dict[str, Any]) -> str | None:
    """The note sought by its script and length (Latin notes in words, CJK ones in chars)."""
    if not rec.get("relevant_rows"):
        return None
    text = rec["texts"][str(rec["relevant_rows"][0])]
    if language_of(text):
        return "CJK ≤ 45 chars" if len(text) <= 45 else "CJK > 45 chars"
    words = len(text.split())
    return (
        "Latin ≤ 13 words"
        if words <= 13
        else ("Latin 14–20 words" if words <= 20 else "Latin ≥ 21 words")
    )


def _bootstrap(deltas: list[float], seed: int = 0) -> str:
    d = np.asarray(deltas)
    rng = np.random.default_rng(seed)
    means = [rng.choice(d, len(d)).mean() for _ in range(2000)]
    return (
        f"{d.mean():+.3f} [{np.quantile(means, 0.025):+.3f}, "
        f"{np.quantile(means, 0.975):+.3f}] ({int((d > 0).sum())} up / "
        f"{int((d < 0).sum())} down)"
    )


def _length_section(flat: list[tuple[str, int, Any]]) -> list[str]:
    rows = []
    for group in (
        "Latin ≤ 13 words",
        "Latin 14–20 words",
        "Latin ≥ 21 words",
        "CJK ≤ 45 chars",
        "CJK > 45 chars",
    ):
        found = [
            (n, q)
            for n, _, q in flat
            if q["kind"] in ("paraphrase", "crosslingual") and sought_group(q["rec"]) == group
        ]
        qs = [q for _, q in found]
        rr = {w: [reciprocal_rank(q["rec"], lambda _t, w=w: w) for q in qs] for w in (0, 0.3, 0.5)}
        sets = sorted({n for n, _ in found})
        rows.append(
            [
                group,
                len(qs),
                ", ".join(sets),
                *(f"{_mean(rr[w]):.3f}" for w in rr),
                _bootstrap([b - a for a, b in zip(rr[0], rr[0.3], strict=True)]),
                _bootstrap([b - a for a, b in zip(rr[0], rr[0.5], strict=True)]),
            ]
        )
    return [
        "By the note sought, its script and length (paraphrase and cross-lingual queries, all "
        "sets pooled; Δ against w 0, bootstrap 95% over queries):",
        "",
        md_table(["note sought", "n", "sets", "w 0", "w 0.3", "w 0.5", "Δ w 0.3", "Δ w 0.5"], rows),
    ]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def target_group(query: str, kind: str) -> str | None:
    """The language of the note a query is written to find (the sets' kinds say it):
    a paraphrase's target is in the query's language, a cross-lingual one's in the other."""
    if kind not in ("paraphrase", "crosslingual"):
        return None
    same = kind == "paraphrase"
    return "ja target" if bool(language_of(query)) == same else "en target"


def _constant(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    return lambda _text: p[0]


def _per_script(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    return lambda text: p[1] if language_of(text) else p[0]


def _by_share(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    weight = round(p[0] + (p[1] - p[0]) * cjk_share(rec), 2)
    return lambda _text: weight


def _by_agreement(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    if "_agree" not in rec:
        rec["_agree"] = properties(rec, rec["query"])["agree_fused_use"]
    weight = p[1] if rec["_agree"] < p[0] else p[2]
    return lambda _text: weight


def latin_words(rec: dict[str, Any], n: int = 10) -> list[int]:
    """Words in each Latin-script candidate among the fused head's first ``n``."""
    head = sorted(rec["head"], key=lambda x: (-x[1], x[0]))[:n]
    texts = [rec["texts"][str(i)] for i, _ in head]
    return [len(t.split()) for t in texts if not language_of(t)]


def _by_latin_length(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    words = latin_words(rec)
    weight = p[1] if words and float(np.median(words)) >= p[0] else p[2]
    return lambda _text: weight


def _by_long_share(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    head = sorted(rec["head"], key=lambda x: (-x[1], x[0]))[:10]
    texts = [rec["texts"][str(i)] for i, _ in head]
    share = sum(not language_of(t) and len(t.split()) >= p[0] for t in texts) / max(1, len(texts))
    weight = round(p[2] + (p[1] - p[2]) * share, 2)
    return lambda _text: weight


def _by_query_length(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    query = rec["query"]
    long = not language_of(query) and len(query.split()) >= p[0]
    weight = p[1] if long else p[2]
    return lambda _text: weight


def _silent_on_long(rec: dict[str, Any], p: tuple[float, ...]) -> Any:
    def weight_of(_text: str) -> float:
        return p[1]

    weight_of.silent = lambda text: (  # type: ignore[attr-defined]
        not language_of(text) and len(text.split()) >= p[0]
    )
    return weight_of


LONG = (14, 17, 20, 25, 30)  # words
PAIRS = [(a, b) for b in (0.3, 0.4, 0.5, 0.6) for a in (0.0, 0.1, 0.2, 0.3) if a < b]

RULES: dict[str, Any] = {  # name → (grid of parameters, (rec, params) → weight_of(text))
    "constant w": ([(w,) for w in (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)], _constant),
    "w per candidate script (latin, cjk)": (
        [(a, b) for a in (0.0, 0.1, 0.2, 0.3) for b in (0.3, 0.4, 0.5, 0.6, 0.7)],
        _per_script,
    ),
    "w from the head's CJK share (at 0, at 1)": (
        [(a, b) for a in (0.0, 0.1, 0.2, 0.3) for b in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)],
        _by_share,
    ),
    "w by agreement (threshold, below, above)": (
        [
            (t, lo, hi)
            for t in (0.1, 0.2, 0.3, 0.4, 0.5)
            for lo in (0.4, 0.5, 0.6, 0.7)
            for hi in (0.0, 0.2, 0.3, 0.4, 0.5)
            if lo != hi
        ],
        _by_agreement,
    ),
    "w by the head's Latin note length (median words ≥ t: a, else b)": (
        [(t, a, b) for t in LONG for a, b in PAIRS],
        _by_latin_length,
    ),
    "w by the head's share of long Latin notes (≥ t words; a at 1, b at 0)": (
        [(t, a, b) for t in LONG for a, b in PAIRS],
        _by_long_share,
    ),
    "w by the query's length (Latin, ≥ t words: a, else b)": (
        [(t, a, b) for t in (8, 10, 12, 15) for a, b in PAIRS],
        _by_query_length,
    ),
    "constant w, silent on long Latin notes (≥ t words take the head's median cosine)": (
        [(t, w) for t in (*LONG, 999) for w in (0.3, 0.4, 0.5, 0.6)],
        _silent_on_long,
    ),
}


def analyse(retrieval: Path, locomo: Path | None, details: Path | None) -> str:
    data = json.loads(retrieval.read_text())
    sets = {name: [q for q in qs if q["rec"] is not None] for name, qs in data.items()}
    for qs in sets.values():
        for q in qs:
            q["rec"]["query"] = q["query"]
    lines = [
        "## Retrieval sets: the head re-ranked offline (MRR@10, e5 primary, USE companion)",
        "",
    ]
    consts = [0.0, 0.3, 0.5]
    rr = {
        name: {
            w: [reciprocal_rank(q["rec"], lambda _t, w=w: w) for q in qs]
            for w in (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
        }
        for name, qs in sets.items()
    }
    ws = list(rr["dev"])
    lines += [
        md_table(
            ["set", "n", *(f"w {w}" for w in ws)],
            [[n, len(sets[n]), *(f"{_mean(rr[n][w]):.3f}" for w in ws)] for n in sets]
            + [
                ["mean of sets", "", *(f"{_mean([_mean(rr[n][w]) for n in sets]):.3f}" for w in ws)]
            ],
        ),
        "",
    ]
    flat = [(n, i, q) for n, qs in sets.items() for i, q in enumerate(qs)]
    rows = []
    for script in (0, 1):
        for kind in ("keyword", "paraphrase", "crosslingual", "direct"):
            idx = [
                (n, i)
                for n, i, q in flat
                if language_of(q["query"]) == script and q["kind"] == kind
            ]
            rows.append(
                [
                    ("ja" if script else "en") + " query",
                    kind,
                    len(idx),
                    *(f"{_mean([rr[n][w][i] for n, i in idx]):.3f}" for w in ws),
                ]
            )
    lines += [
        "By the query's script and kind (all sets pooled):",
        "",
        md_table(["query", "kind", "n", *(f"w {w}" for w in ws)], rows),
        "",
    ]
    rows = []
    for name in [*sets, "all"]:
        for group in ("en target", "ja target"):
            idx = [
                (n, i)
                for n, i, q in flat
                if (name == "all" or n == name) and target_group(q["query"], q["kind"]) == group
            ]
            rows.append(
                [
                    name,
                    group,
                    len(idx),
                    *(f"{_mean([rr[n][w][i] for n, i in idx]):.3f}" for w in consts),
                ]
            )
    lines += [
        "By the language of the note sought (paraphrase and cross-lingual queries):",
        "",
        md_table(["set", "target", "n", *(f"w {w}" for w in consts)], rows),
        "",
    ]
    lines += [*_length_section(flat), ""]
    lines += [
        "Rules, leave-one-set-out (each held-out set gets the grid point with the best "
        "mean MRR over the others):",
        "",
    ]
    rows = []
    for rule, (grid, make) in RULES.items():
        scores = {
            n: {p: _mean([reciprocal_rank(q["rec"], make(q["rec"], p)) for q in qs]) for p in grid}
            for n, qs in sets.items()
        }
        held = []
        for n in sets:
            best = max(grid, key=lambda p, n=n: _mean([scores[o][p] for o in sets if o != n]))
            held.append((n, best, scores[n][best]))
        insample = max(grid, key=lambda p: _mean([scores[o][p] for o in sets]))
        rows.append(
            [
                rule,
                *(f"{m:.3f} {p}" for _, p, m in held),
                f"**{_mean([m for _, _, m in held]):.4f}**",
                f"{_mean([scores[o][insample] for o in sets]):.3f} {insample}",
            ]
        )
    lines += [md_table(["rule", *sets, "held-out mean", "best in-sample"], rows), ""]
    if locomo is not None:
        lines += _locomo_section(sets, json.loads(locomo.read_text()), details)
    return "\n".join(lines)


PROPS = (
    "top10_latin_words_median",
    "top10_long_latin_share",
    "head_other_script",
    "agree_fused_use",
    "agree_e5_use",
    "overlap10",
    "top10_chars",
    "query_chars",
    "use_spread",
    "e5_spread",
    "use_top",
)


def _locomo_section(
    sets: dict[str, list[Any]], lc: dict[str, Any], details: Path | None
) -> list[str]:
    ret = [properties(q["rec"], q["query"]) for qs in sets.values() for q in qs]
    loc = [
        (c, r, properties(r["rec"], r["query"]))
        for c, qs in lc.items()
        for r in qs
        if r["rec"] is not None
    ]

    def spread(values: list[float]) -> str:
        v = np.asarray(values)
        return f"{np.median(v):.3f} [{np.quantile(v, 0.1):.3f}, {np.quantile(v, 0.9):.3f}]"

    lines = [
        "## What a search can read: retrieval sets vs LoCoMo tuning (median [10%, 90%])",
        "",
        md_table(
            [
                "property",
                f"retrieval sets ({len(ret)} queries)",
                f"LoCoMo 26/30/41 ({len(loc)} questions)",
            ],
            [[p, spread([r[p] for r in ret]), spread([x[2][p] for x in loc])] for p in PROPS],
        ),
        "",
    ]
    if details is None:
        return lines
    by: dict[str, dict[tuple[str, str, int], dict[str, Any]]] = {}
    for row in json.loads(details.read_text()):
        by.setdefault(row["system"], {})[
            (row["conversation"], row["question"], row["category"])
        ] = row
    base, half, dflt = (by[f"plan:{n}"] for n in ("no_companion", "companion_half", "default"))
    rows = []
    for prop in ("agree_fused_use", "overlap10", "top10_chars", "e5_spread", "query_chars"):
        values = np.asarray([x[2][prop] for x in loc])
        edges = np.quantile(values, [0, 1 / 3, 2 / 3, 1])
        for lo, hi in itertools.pairwise(edges):
            keys = [(c, r["query"], r["category"]) for c, r, p in loc if lo <= p[prop] <= hi]
            keys = [k for k in keys if k in base]
            rows.append(
                [
                    prop,
                    f"[{lo:.2f}, {hi:.2f}]",
                    len(keys),
                    f"{_mean([dflt[k]['recall'] - base[k]['recall'] for k in keys]):+.3f}",
                    f"{_mean([half[k]['recall'] - base[k]['recall'] for k in keys]):+.3f}",
                ]
            )
    lines += [
        "LoCoMo tuning, evidence recall change against no companion, by tercile of a property:",
        "",
        md_table(["property", "tercile", "n", "w 0.3", "w 0.5"], rows),
        "",
    ]
    return lines


# ---------------------------------------------------------------- session 19: by sentence

WEIGHTS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)


def note_group(text: str) -> str:
    """The note sought as in the session-18 reading of set G: long-EN (a Latin note of 21 words
    or more), short-EN (a shorter Latin note), long-JA (a CJK note of more than 45 chars),
    other (a shorter CJK note)."""
    if language_of(text):
        return "long-JA" if len(text) > 45 else "other"
    return "long-EN" if len(text.split()) >= 21 else "short-EN"


SOFT_TEMPERATURE = 0.05  # "soft": the scale of a cosine difference that counts
READINGS = ("whole", "max", "top2", "soft", "whole∨max", "(whole+max)/2")


def note_sentences(text: str) -> list[str]:
    """A note's sentences when it has several (else empty: it is read whole)."""
    sentences = split_sentences(text)
    return sentences if len(sentences) > 1 else []


def note_cosine(whole: float, sentences: list[float], reading: str) -> float:
    """A note's companion cosine by ``reading`` from its whole cosine and its sentences'
    (the whole cosine for a note of fewer than two sentences)."""
    if reading == "whole" or len(sentences) < 2:
        return whole
    ranked = sorted(sentences, reverse=True)
    best = ranked[0]
    if reading == "max":
        return best
    if reading == "top2":
        return (best + ranked[1]) / 2.0
    if reading == "soft":  # T·log(mean(exp(c / T))), between the mean and the best
        t = SOFT_TEMPERATURE
        return best + t * math.log(sum(math.exp((c - best) / t) for c in ranked) / len(ranked))
    if reading == "whole∨max":
        return max(whole, best)
    if reading == "(whole+max)/2":
        return (whole + best) / 2.0
    raise ValueError(f"unknown reading {reading!r}")


def head_cosines(
    use: Any, cache: Any, query: str, texts: Mapping[int, str], *, by_sentence: bool
) -> dict[str, dict[int, float]]:
    """The companion's cosines of ``texts`` per reading (only "whole" unless ``by_sentence``):
    the query once, the notes and their sentences in one batched call of the cache."""
    q = cache.query(use, query)
    parts = {t: note_sentences(t) for t in texts.values()} if by_sentence else {}
    found = cache.passages(use, [*texts.values(), *(p for ps in parts.values() for p in ps)])

    def cosine(text: str) -> float:
        return float(np.dot(q, found[text]))

    whole = {i: cosine(t) for i, t in texts.items()}
    if not by_sentence:
        return {"whole": whole}
    sentences = {i: [cosine(p) for p in parts[t]] for i, t in texts.items()}
    return {r: {i: note_cosine(whole[i], sentences[i], r) for i in texts} for r in READINGS}


def _sentence_cosines(sets: dict[str, list[Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per query (``set/index``) and per reading: the companion's cosines of the recorded
    head (one USE model, one vector cache for all)."""
    from omoide.service.vector_cache import VectorCache

    use = make_embedder("use")
    cache = VectorCache(100_000)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name, qs in sets.items():
        for i, q in enumerate(qs):
            texts = {int(k): t for k, t in q["rec"]["texts"].items()}
            out[f"{name}/{i}"] = {
                r: {str(k): v for k, v in got.items()}
                for r, got in head_cosines(use, cache, q["query"], texts, by_sentence=True).items()
            }
        print("cosines", name, flush=True)
    return out


def _with_cosines(rec: dict[str, Any], cosines: dict[str, float]) -> dict[str, Any]:
    return {**rec, "use": cosines}


def sentence_probe(retrieval: Path, locomo: Path | None) -> str:
    data = json.loads(retrieval.read_text())
    sets = {name: [q for q in qs if q["rec"] is not None] for name, qs in data.items()}
    cos = _sentence_cosines(sets)
    modes = list(READINGS)
    rr = {
        mode: {
            w: {
                name: [
                    reciprocal_rank(
                        _with_cosines(q["rec"], cos[f"{name}/{i}"][mode]), lambda _t, w=w: w
                    )
                    for i, q in enumerate(qs)
                ]
                for name, qs in sets.items()
            }
            for w in (*WEIGHTS, 1.0)
        }
        for mode in modes
    }
    lines = [
        "## Retrieval sets: the companion reading notes by sentence (MRR@10 of the recorded heads)",
        "",
    ]
    multi = {
        name: _mean([len(note_sentences(t)) > 1 for q in qs for t in q["rec"]["texts"].values()])
        for name, qs in sets.items()
    }
    lines += [
        "Share of head notes with more than one sentence, per set: "
        + ", ".join(f"{n} {v:.2f}" for n, v in multi.items()),
        "",
    ]
    rows = []
    for mode in modes:
        for w in (0.3, 0.5):
            means = [_mean(rr[mode][w][n]) for n in sets]
            rows.append([mode, w, *(f"{m:.3f}" for m in means), f"**{_mean(means):.4f}**"])
    lines += [
        "Per set at the default weight 0.3 and at 0.5 (w 0 is the same for every mode: "
        + ", ".join(f"{n} {_mean(rr['whole'][0.0][n]):.3f}" for n in sets)
        + "):",
        "",
        md_table(["mode", "w", *sets, "mean"], rows),
        "",
    ]
    # leave-one-set-out: the weight chosen per mode, and the (mode, weight) pair chosen
    rows = []
    grids = {mode: [(mode, w) for w in WEIGHTS] for mode in modes}
    grids["any mode"] = [(mode, w) for mode in modes for w in WEIGHTS]
    grids["any mode at w 0.3"] = [(mode, 0.3) for mode in modes]
    for label, grid in grids.items():
        held = []
        for n in sets:
            best = max(
                grid,
                key=lambda p, n=n: (
                    _mean([_mean(rr[p[0]][p[1]][o]) for o in sets if o != n]),
                    -p[1],
                ),
            )
            held.append((n, best, _mean(rr[best[0]][best[1]][n])))
        rows.append(
            [
                label,
                *(
                    f"{m:.3f} ({p[0] if label.startswith('any') else ''} {p[1]})"
                    for _, p, m in held
                ),
                f"**{_mean([m for _, _, m in held]):.4f}**",
            ]
        )
    lines += [
        "Leave-one-set-out (each held-out set gets the weight, or the mode and weight, "
        "with the best mean MRR over the other seven):",
        "",
        md_table(["mode", *sets, "held-out mean"], rows),
        "",
    ]
    pooled = [(n, i) for n, qs in sets.items() for i in range(len(qs))]
    rows = []
    for mode in modes[1:]:
        for w in (0.3, 0.5):
            rows.append(
                [mode, w, _bootstrap([rr[mode][w][n][i] - rr["whole"][w][n][i] for n, i in pooled])]
            )
    lines += [
        "Each reading against the whole note at the same weight, all queries pooled "
        "(bootstrap 95% over queries):",
        "",
        md_table(["mode", "w", "Δ MRR@10 vs whole"], rows),
        "",
    ]
    # by the note sought, all kinds, all sets pooled
    flat = [
        (n, i, q)
        for n, qs in sets.items()
        for i, q in enumerate(qs)
        if q["rec"].get("relevant_rows")
    ]
    rows = []
    for group in ("long-EN", "short-EN", "long-JA", "other"):
        idx = [
            (n, i)
            for n, i, q in flat
            if note_group(q["rec"]["texts"][str(q["rec"]["relevant_rows"][0])]) == group
        ]
        base = [rr["whole"][0.0][n][i] for n, i in idx]
        for mode, w in [
            ("whole", 0.0),
            *((m, 0.3) for m in modes),
            ("whole", 0.5),
            ("max", 0.5),
            ("whole", 1.0),
            ("max", 1.0),
        ]:
            got = [rr[mode][w][n][i] for n, i in idx]
            ref = [rr["whole"][0.3][n][i] for n, i in idx]
            rows.append(
                [
                    group,
                    len(idx),
                    mode,
                    w,
                    f"{_mean(got):.3f}",
                    _bootstrap([b - a for a, b in zip(base, got, strict=True)]),
                    _bootstrap([b - a for a, b in zip(ref, got, strict=True)]),
                ]
            )
    lines += [
        "By the note sought (all queries, all eight sets pooled; Δ with a bootstrap 95% "
        "interval over queries; w 1.0 is the companion alone):",
        "",
        md_table(
            [
                "note sought",
                "n",
                "mode",
                "w",
                "MRR@10",
                "Δ vs no companion",
                "Δ vs default (whole, 0.3)",
            ],
            rows,
        ),
        "",
    ]
    g = [(i, q) for i, q in enumerate(sets.get("G", [])) if q["rec"].get("relevant_rows")]
    if g:
        rows = []
        for group in ("long-EN", "short-EN", "long-JA"):
            idx = [
                i
                for i, q in g
                if note_group(q["rec"]["texts"][str(q["rec"]["relevant_rows"][0])]) == group
            ]
            rows.append(
                [
                    group,
                    len(idx),
                    *(
                        f"{_mean([rr[m][w]['G'][i] for i in idx]):.3f}"
                        for m, w in [("whole", 0.0), ("whole", 0.3), *((m, 0.3) for m in modes[1:])]
                    ),
                ]
            )
        lines += [
            "Set G alone by the note sought (MRR@10):",
            "",
            md_table(
                ["note sought", "n", "none", "whole 0.3", *(f"{m} 0.3" for m in modes[1:])], rows
            ),
            "",
        ]
    if locomo is not None:
        lines += _locomo_sentences(json.loads(locomo.read_text()))
    return "\n".join(lines)


def _locomo_sentences(lc: dict[str, Any]) -> list[str]:
    """How many sentences LoCoMo's head notes have, and the time a 40-note head costs the
    companion cold (no vector held: whole notes vs whole notes and their sentences)."""
    import time

    from omoide.service.vector_cache import VectorCache

    recs = [r["rec"] for qs in lc.values() for r in qs if r["rec"] is not None]
    counts = [len(note_sentences(t)) or 1 for r in recs for t in r["texts"].values()]
    use = make_embedder("use")
    use.embed_passages(["warm up"])
    sample = [r for r in recs if len(r["texts"]) >= 40][::12][:30]
    timing: dict[str, list[float]] = {}
    for label, by_sentence in (("whole", False), ("by sentence", True)):
        for r in sample:
            cache = VectorCache()
            texts = {int(k): t for k, t in r["texts"].items()}
            start = time.perf_counter()
            head_cosines(use, cache, r["query"], texts, by_sentence=by_sentence)
            cold = time.perf_counter() - start
            start = time.perf_counter()
            head_cosines(use, cache, r["query"] + "?", texts, by_sentence=by_sentence)
            warm = time.perf_counter() - start
            timing.setdefault(f"{label} cold", []).append(cold)
            timing.setdefault(f"{label} warm", []).append(warm)
    c = np.asarray(counts)
    return [
        "## LoCoMo tuning heads (session 17's recording, 26/30/41)",
        "",
        f"Head notes: {len(c)}; sentences per note median {np.median(c):.0f}, "
        f"share with more than one {np.mean(c > 1):.2f}, mean {c.mean():.2f}.",
        "",
        f"Companion time for one 40-note head ({len(sample)} heads; cold: an empty vector "
        "cache, warm: every note held, a new query):",
        "",
        md_table(
            ["reading", "p50 ms", "p90 ms"],
            [
                [k, f"{1000 * np.median(v):.0f}", f"{1000 * np.quantile(v, 0.9):.0f}"]
                for k, v in timing.items()
            ],
        ),
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record-retrieval")
    r.add_argument("--out", type=Path, required=True)
    lc = sub.add_parser("record-locomo")
    lc.add_argument("folder", type=Path)
    lc.add_argument("--now", type=datetime.fromisoformat, required=True)
    lc.add_argument("--conversations", default="26,30,41")
    lc.add_argument("--out", type=Path, required=True)
    a = sub.add_parser("analyse")
    a.add_argument("--retrieval", type=Path, required=True)
    a.add_argument("--locomo", type=Path, default=None)
    a.add_argument(
        "--details",
        type=Path,
        default=None,
        help="bench/locomo.py --details of plans default, no_companion, companion_half",
    )
    a.add_argument("--out", type=Path, default=None, help="also write the report here (.md)")
    se = sub.add_parser("sentences")
    se.add_argument("--retrieval", type=Path, required=True)
    se.add_argument("--locomo", type=Path, default=None)
    se.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.cmd == "record-retrieval":
        record_retrieval(args.out)
    elif args.cmd == "record-locomo":
        record_locomo(args.folder, args.now, args.conversations, args.out)
    elif args.cmd == "sentences":
        text = sentence_probe(args.retrieval, args.locomo)
        if args.out is not None:
            write_markdown(
                args.out,
                f"# Search companion by sentence (`bench/companion_property.py`)"
                f"\n\nCommand: `{command_line()}`\n\n{text}",
            )
        print(text)
    else:
        text = analyse(args.retrieval, args.locomo, args.details)
        if args.out is not None:
            head = (
                f"# Search companion probe (`bench/companion_property.py`)\n\nCommand: "
                f"`{command_line()}`\n\n"
            )
            write_markdown(args.out, head + text)
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
