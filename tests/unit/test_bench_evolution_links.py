"""bench/evolution_links.py: links each memory made, by language and length rule, and search
after evolution (with the hashing embedder on an invented set)."""

from __future__ import annotations

import sys
from pathlib import Path

from omoide.embed.hashing import HashEmbedder

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from evolution_links import report, run  # noqa: E402
from lib.datasets import RetrievalQuery, RetrievalSet  # noqa: E402

# Two near-copies in each language: the Japanese ones under 30 characters, over 30 columns.
DATA = RetrievalSet(
    {
        "m1": "ユーザーは近所の公園で毎朝ラジオ体操をしている",
        "m2": "ユーザーは近所の公園で毎朝ラジオ体操をする",
        "m3": "The user swims at the public pool every morning.",
        "m4": "The user swims at the public pool every morning now.",
    },
    (RetrievalQuery("q1", "ラジオ体操", frozenset({"m1", "m2"}), "keyword", "ja"),),
)


def test_the_width_rule_links_the_short_japanese_memory_and_english_is_unchanged() -> None:
    embedder = HashEmbedder()
    chars, columns = run(embedder, DATA, "chars"), run(embedder, DATA, "columns")
    assert chars["links"]["ja"] == {"memories": 2, "links": 0, "short": 2}
    assert columns["links"]["ja"] == {"memories": 2, "links": 1, "short": 0}
    assert chars["links"]["en"] == columns["links"]["en"] == {"memories": 2, "links": 1, "short": 0}
    assert columns["search"]["r@10"] == 1.0
    text = report(
        {
            "embedder": embedder.model_id,
            "data": ["invented"],
            "seconds": 1.0,
            "sets": {"invented": {"chars": chars, "columns": columns}},
        }
    )
    assert "| invented | columns | 0.50 | 0% | 0.50 | 0% |" in text
