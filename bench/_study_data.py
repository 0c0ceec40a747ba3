"""Data, cached embeddings and the two candidate sides of ``bench/search_study.py`` (which see)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lib.datasets import load_conversations, load_retrieval_set

CACHE = Path("/tmp/omoide-embcache")


@dataclass(frozen=True)
class Doc:
    id: str
    text: str


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    relevant: frozenset[str]
    kind: str


@dataclass(frozen=True)
class Corpus:
    """One persona's documents and the queries asked of them."""

    name: str
    docs: tuple[Doc, ...]
    queries: tuple[Query, ...]
    meta: dict = field(default_factory=dict, hash=False, compare=False)


# -- data -------------------------------------------------------------------------------------


def load_ja(path: Path) -> Corpus:
    data = load_retrieval_set(path)
    docs = tuple(Doc(i, text) for i, text in data.memories.items())
    return Corpus(
        "retrieval_ja", docs, tuple(Query(q.id, q.query, q.relevant, q.kind) for q in data.queries)
    )


def load_locomo(directory: Path) -> list[Corpus]:
    """One corpus per conversation: its turns, and its questions of categories 1–4 that have
    evidence (ids as ``lib.datasets`` normalises them, on both sides)."""
    corpora = []
    for conv in load_conversations(directory):
        docs = tuple(Doc(t.dia_id, t.render()) for t in conv.turns())
        queries = tuple(
            Query(f"{conv.sample_id}-{i}", q.question, frozenset(q.evidence), f"cat{q.category}")
            for i, q in enumerate(conv.qa)
            if q.category in (1, 2, 3, 4) and q.evidence
        )
        corpora.append(Corpus(f"locomo-{conv.sample_id}", docs, queries))
    return corpora


# -- embeddings, cached under /tmp by model id -------------------------------------------------


def load_embedder(name: str):  # returns the Embedder port
    from omoide.embed import make_embedder

    return make_embedder(name)


def _cache_file(model_id: str, mode: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", model_id)
    return CACHE / safe / f"{mode}.npz"


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def embed_cached(embedder, mode: str, texts: Sequence[str]) -> np.ndarray:
    """Vectors for ``texts`` (``mode`` is ``passage`` or ``query``), embedding only cache misses.

    Passages are embedded in batches, queries one at a time through ``embed_query`` exactly as
    the search service will.
    """
    path = _cache_file(embedder.model_id, mode)
    cache: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as data:
            cache = dict(zip(data["keys"].tolist(), data["vecs"], strict=True))
    missing = sorted({t for t in texts if _key(t) not in cache})
    if missing:
        if mode == "passage":
            vecs = embedder.embed_passages(missing)
        else:
            vecs = np.stack([embedder.embed_query(t) for t in missing])
        cache.update(zip((_key(t) for t in missing), vecs, strict=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(cache)
        np.savez(path, keys=np.array(keys), vecs=np.stack([cache[k] for k in keys]))
    return np.stack([cache[_key(t)] for t in texts]).astype(np.float32)


# -- the two retrieval sides ------------------------------------------------------------------

KW_MAX = 100  # the deepest keyword pool any plan uses
SEM_MAX = 100  # the deepest semantic pool any plan uses
DEPTH = 80  # how many results a plan returns (enough to fill the 1,000-token budget)

BASE_DDL = (
    "CREATE TABLE memories (id INTEGER PRIMARY KEY, persona_id INTEGER NOT NULL, "
    "content TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active')"
)
BASE_INDEX = "CREATE INDEX memories_persona ON memories(persona_id, status)"


@dataclass
class Bed:
    """A temporary SQLite database holding corpora, one persona each, with the FTS index."""

    conn: object
    fts: object
    rowids: list[dict[str, int]]  # per corpus: doc id -> rowid
    doc_of: dict[int, str]  # rowid -> doc id


def build_bed(path: Path, corpora: Sequence[Corpus], tuning=None) -> Bed:
    import sqlite3

    from omoide.store.sqlite.fts_search import Fts5Index
    from omoide.store.sqlite.fts_terms import DEFAULT_TUNING

    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(BASE_DDL)
    conn.execute(BASE_INDEX)
    fts = Fts5Index(
        name="memories",
        base_table="memories",
        content_col="content",
        persona_col="persona_id",
        filter_sql="b.status = 'active'",
        tuning=tuning or DEFAULT_TUNING,
    )
    for statement in fts.ddl():
        conn.execute(statement)
    rowids, doc_of, next_id = [], {}, 1
    for persona, corpus in enumerate(corpora, start=1):
        ids = {}
        for doc in corpus.docs:
            ids[doc.id] = next_id
            doc_of[next_id] = doc.id
            next_id += 1
        conn.executemany(
            "INSERT INTO memories (id, persona_id, content) VALUES (?, ?, ?)",
            [(ids[d.id], persona, d.text) for d in corpus.docs],
        )
        fts.index(conn, [(ids[d.id], d.text) for d in corpus.docs])
        rowids.append(ids)
    conn.commit()
    return Bed(conn, fts, rowids, doc_of)


@dataclass(frozen=True)
class Candidates:
    """Everything a plan may fuse for one query: both sides at full depth."""

    keyword: tuple  # Scored, best first, up to KW_MAX
    semantic: dict  # embedder name -> tuple of Scored, best first, up to SEM_MAX
    keyword_ms: float


def keyword_side(bed: Bed, persona: int, text: str) -> tuple[tuple, float]:
    from omoide.engine.fusion import Scored

    start = time.perf_counter()
    hits = bed.fts.search(bed.conn, persona_id=persona, query=text, limit=KW_MAX)
    elapsed = (time.perf_counter() - start) * 1000
    return tuple(Scored(h.rowid, h.score) for h in hits), elapsed


def semantic_side(doc_vecs: np.ndarray, rowids: Sequence[int], query_vec: np.ndarray) -> tuple:
    from omoide.engine.fusion import Scored

    sims = doc_vecs @ query_vec
    top = np.argsort(-sims, kind="stable")[:SEM_MAX]
    return tuple(Scored(int(rowids[i]), float(sims[i])) for i in top)


def gather(bed: Bed, corpora: Sequence[Corpus], embedders: dict) -> list[list[Candidates]]:
    """Per corpus, per query: keyword hits and each embedder's nearest passages."""
    out = []
    for persona, corpus in enumerate(corpora, start=1):
        rowids = [bed.rowids[persona - 1][d.id] for d in corpus.docs]
        doc_vecs = {
            n: embed_cached(e, "passage", [d.text for d in corpus.docs])
            for n, e in embedders.items()
        }
        query_vecs = {
            n: embed_cached(e, "query", [q.text for q in corpus.queries])
            for n, e in embedders.items()
        }
        rows = []
        for qi, query in enumerate(corpus.queries):
            kw, ms = keyword_side(bed, persona, query.text)
            sem = {n: semantic_side(doc_vecs[n], rowids, query_vecs[n][qi]) for n in embedders}
            rows.append(Candidates(kw, sem, ms))
        out.append(rows)
    return out
