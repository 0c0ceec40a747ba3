"""``bench/retrieval.py`` keeps one row per query in its JSON report (id, kind, lang, rank of
the first relevant memory, reciprocal rank) for each embedder and mode, so that a grouping
the set does not carry (a README's list of query ids) can be scored from a saved report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import retrieval  # noqa: E402
from lib.datasets import RetrievalQuery, RetrievalSet  # noqa: E402
from lib.harness import index_corpus  # noqa: E402
from omoide.config import Settings  # noqa: E402
from omoide.embed.hashing import HashEmbedder  # noqa: E402
from omoide.engine.search_plan import preset  # noqa: E402
from omoide.wiring import build  # noqa: E402

DATA = RetrievalSet(
    memories={
        "m1": "The user drinks green tea every morning.",
        "m2": "The user's dentist appointment is on Friday at noon.",
        "m3": "ユーザーは京都に住んでいる。",
    },
    queries=(
        RetrievalQuery("q1", "green tea morning", frozenset({"m1"}), "keyword", "en"),
        RetrievalQuery("q2", "dentist appointment Friday", frozenset({"m2"}), "keyword", "en"),
        RetrievalQuery("q3", "zebra xylophone", frozenset({"m3"}), "direct", "ja"),
    ),
)


def test_each_query_has_its_row_and_a_group_is_scored_from_them(tmp_path: Path) -> None:
    embedder = HashEmbedder()
    app = build(Settings.from_env({}, data_dir=tmp_path), embedder=embedder, llm=None)
    try:
        key_to_id = {m.key: i for m, i in index_corpus(app, "bench", DATA.memories, embedder)}
        result = retrieval.evaluate(app, DATA.queries, key_to_id, "keyword", preset("default"))
    finally:
        app.close()
    rows = result["queries"]
    assert [(r["id"], r["kind"], r["lang"]) for r in rows] == [
        ("q1", "keyword", "en"),
        ("q2", "keyword", "en"),
        ("q3", "direct", "ja"),
    ]
    assert rows[0]["rank"] == 1 and rows[0]["rr"] == 1.0
    assert rows[2]["rank"] is None and rows[2]["rr"] == 0.0
    # the rows add up to the summary the report already gave
    assert round(sum(r["rr"] for r in rows) / len(rows), 3) == result["all"]["mrr"]
    group = retrieval.score_group(rows, ["q1", "q3"])
    assert (group["n"], group["mrr"], group["r@1"]) == (2, 0.5, 0.5)
    with pytest.raises(KeyError, match="q9"):
        retrieval.score_group(rows, ["q1", "q9"])
