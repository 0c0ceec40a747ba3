"""Candidate lists of a retrieval set as the real search pipeline produces them (bench helper).

Every memory is stored as ``bench/retrieval.py`` stores it, then each query's keyword list (FTS
coverage) and semantic list (centred cosine) are read through the real ``NoteTier`` with the
default plan's pool, with each candidate's script group, so fusion variants can be scored on the
same lists without running the pipeline again (``bench/fusion_study.py``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from lib.datasets import RetrievalSet
from lib.harness import index_corpus
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.service.retrieval import NoteTier
from omoide.store.vectors import language_of
from omoide.wiring import build


def candidate_lists(
    embedder_name: str, data: RetrievalSet, *, top_k: int = 10
) -> list[dict[str, Any]]:
    """One row per query: kind, lang, relevant ids, the keyword and semantic lists as
    [memory id, score] best first, and each candidate's script group."""
    embedder = make_embedder(embedder_name)
    pool = DEFAULT_PLAN.note_pool(top_k)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
        stored = index_corpus(app, "bench", data.memories, embedder)
        store = app.store.memories("bench")
        row_to_id = {store.id_of(memory.key): memory_id for memory, memory_id in stored}
        tier = NoteTier(store)
        script = {memory_id: language_of(text) for memory_id, text in data.memories.items()}
        for q in data.queries:
            vector = embedder.embed_query(q.query)
            keyword = tier.keyword(q.query, limit=pool)
            semantic = tier.semantic(vector, query=q.query, limit=pool, allowed=None)
            rows.append(
                {
                    "id": q.id,
                    "query": q.query,
                    "kind": q.kind,
                    "lang": q.lang,
                    "query_script": language_of(q.query),
                    "relevant": sorted(q.relevant),
                    "keyword": [[row_to_id[s.id], s.score] for s in keyword],
                    "semantic": [[row_to_id[s.id], s.score] for s in semantic],
                    "script": script,
                }
            )
        app.close()
    return rows
