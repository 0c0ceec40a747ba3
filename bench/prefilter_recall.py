"""Candidate recall of the vector search's sign prefilter (``store/quantized.py``).

For each query, the centred top ``k`` of the prefiltered search (sign bits → int8 pass → exact
rescoring of the survivors) is compared with the exact top ``k`` (every row scored in float32),
at several candidate counts given as shares of the rows: recall@k is the share of the exact
top ``k`` ids the prefiltered search returns.

Two sets, split before choosing the share:

- *tuning*: a scale-benchmark folder (``bench/scale.py --sqlite-dir``, synthetic vectors around
  256 topics), probed with in-distribution vectors (the corpus's topics, other draws) and with
  the e5 embeddings of the benchmark's 24 queries (out of distribution: nothing is near them);
- *validation*: real e5 embeddings from any Omoide folder (every memory and turn vector in it,
  pooled), ``--holdout`` of them taken out as queries, the e5 embeddings of ``--questions``
  LoCoMo questions (``--data``: the folder's conversations, so the questions have answers in
  it) and the 24 queries.

    .venv/bin/python bench/prefilter_recall.py --scale-folder DIR --real-folder DIR
        --data ../shared/bench/locomo [--shares 0.01,0.02,...]
        [--out bench/results/prefilter_recall]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lib.reports import command_line, md_table, write_results
from lib.synthetic import SEARCH_QUERIES, SyntheticCorpus
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.store.vectors import VectorIndex, language_of
from omoide.wiring import build

RESULTS = Path(__file__).parent / "results"
LIMITS = (10, 50)


def recall(
    index: VectorIndex, queries: Sequence[tuple[np.ndarray, str]], shares: Sequence[float]
) -> dict[float, dict[int, float]]:
    """Mean recall@k of the prefiltered search against the exact one, per share."""
    top = max(LIMITS)
    saved = index.quantize_from
    index.quantize_from = 10**12
    exact = [[i for i, _ in index.search(v, limit=top, centred_for=t)] for v, t in queries]
    index.quantize_from = 0
    index.search(queries[0][0], limit=top, centred_for=queries[0][1])  # builds the int8 copy
    # Internal on purpose: the sweep re-reads one int8 copy at each prefilter share; the index
    # takes its share only when built, and re-quantizing the corpus per share costs minutes.
    quantized = index._q
    assert quantized is not None
    out: dict[float, dict[int, float]] = {}
    for share in shares:
        quantized.share, quantized.floor = share, 0
        got = [[i for i, _ in index.search(v, limit=top, centred_for=t)] for v, t in queries]
        out[share] = {
            k: float(
                np.mean([len(set(g[:k]) & set(e[:k])) / k for g, e in zip(got, exact, strict=True)])
            )
            for k in LIMITS
        }
    index.quantize_from = saved
    return out


def scale_sets(
    folder: Path, e5_queries: list[tuple[np.ndarray, str]], probes: int
) -> tuple[VectorIndex, dict[str, list[tuple[np.ndarray, str]]]]:
    embedder = make_embedder("e5", threads=1)
    app = build(Settings.from_env({}, data_dir=folder), embedder=embedder, llm=None)
    index = app.store.memories("bench").vectors
    news, vectors, _ = SyntheticCorpus(index.dim, noise_seed=99).batch(probes)
    inside = [(v, m.content) for v, m in zip(vectors, news, strict=True)]
    return index, {"in-distribution": inside, "24 queries (e5)": e5_queries}


def locomo_questions(data: Path, count: int) -> list[str]:
    questions = [
        qa["question"]
        for path in sorted(data.glob("*.json"))
        for qa in json.loads(path.read_text(encoding="utf-8"))["qa"]
    ]
    picked = np.random.default_rng(5).choice(len(questions), size=count, replace=False)
    return [questions[i] for i in sorted(picked)]


def real_sets(
    folder: Path,
    e5_queries: list[tuple[np.ndarray, str]],
    holdout: int,
    questions: list[tuple[np.ndarray, str]],
) -> tuple[VectorIndex, dict[str, list[tuple[np.ndarray, str]]]]:
    conn = sqlite3.connect(f"file:{folder / 'omoide.db'}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT v.vector, m.content FROM memory_vectors v JOIN memories m ON m.id = v.memory_id "
        "UNION ALL SELECT v.vector, e.content FROM event_vectors v "
        "JOIN session_events e ON e.id = v.event_id"
    ).fetchall()
    conn.close()
    rng = np.random.default_rng(3)
    order = rng.permutation(len(rows))
    held, kept = order[:holdout], order[holdout:]
    dim = len(rows[0][0]) // 4
    index = VectorIndex(dim)
    index.add(
        range(len(kept)),
        np.stack([np.frombuffer(rows[i][0], dtype=np.float32) for i in kept]),
        [language_of(rows[i][1]) for i in kept],
    )
    held_out = [(np.frombuffer(rows[i][0], dtype=np.float32), rows[i][1]) for i in held]
    return index, {
        "held-out rows": held_out,
        "LoCoMo questions (e5)": questions,
        "24 queries (e5)": e5_queries,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale-folder", type=Path, required=True)
    parser.add_argument("--real-folder", type=Path, required=True)
    parser.add_argument("--shares", default="0.005,0.01,0.02,0.03125,0.05,0.1")
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--holdout", type=int, default=200)
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo conversations")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--out", type=Path, default=RESULTS / "prefilter_recall")
    args = parser.parse_args(argv)
    shares = [float(s) for s in args.shares.split(",")]
    embedder = make_embedder("e5", threads=1)
    e5_queries = [(embedder.embed_query(q), q) for q in SEARCH_QUERIES]
    asked = [(embedder.embed_query(q), q) for q in locomo_questions(args.data, args.questions)]
    rows: list[list[Any]] = []
    data: dict[str, Any] = {}
    for split, (index, sets) in (
        ("tuning", scale_sets(args.scale_folder, e5_queries, args.probes)),
        ("validation", real_sets(args.real_folder, e5_queries, args.holdout, asked)),
    ):
        for name, queries in sets.items():
            result = recall(index, queries, shares)
            data[f"{split}/{name}"] = {
                "rows": len(index),
                "queries": len(queries),
                "recall": result,
            }
            for share, by_k in result.items():
                rows.append(
                    [
                        split,
                        name,
                        len(index),
                        len(queries),
                        f"{share:g}",
                        round(share * len(index)),
                        *(f"{by_k[k]:.3f}" for k in LIMITS),
                    ]
                )
            print(split, name, {s: r for s, r in result.items()}, file=sys.stderr)
    text = "\n".join(
        [
            "# Sign prefilter: candidate recall against the exact centred search",
            "",
            f"Command: `{command_line()}`",
            "",
            md_table(
                [
                    "split",
                    "query set",
                    "rows",
                    "queries",
                    "share",
                    "candidates",
                    *(f"recall@{k}" for k in LIMITS),
                ],
                rows,
            ),
            "",
        ]
    )
    write_results(args.out, text, data)
    print(text)


if __name__ == "__main__":
    main()
