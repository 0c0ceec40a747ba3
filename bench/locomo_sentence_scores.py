"""Probe: a note's semantic score from its best-matching sentence (MaxP), without a store change.

A note of several sentences has one vector for all of them; a question that asks about one
clause ("what did they paint?") meets that clause diluted by the others. This probe scores the
note tier's semantic candidates again as

    (1 − β) × whole-note score + β × max(whole-note score, best sentence's score)

where a sentence's score is the same persona-centred cosine the note's vector gets
(``VectorIndex.score_vectors``), with the sentences split by the consolidator's own
``split_sentences``. Single-sentence notes keep their score. Everything after the semantic side
(fusion, companion, strength, merge with excerpts, folding) is the real search path.

Nothing in ``src/`` does this: a server would need every note's sentence vectors stored at write
time (a store change). The probe embeds them once per kept folder and caches them beside it
(``--cache``), then runs ``bench/locomo.py`` (its options after ``--``) with the note tier's
semantic side replaced in-process. β 0 reproduces ``locomo.py`` exactly. ``--turn-beta`` does
the same for conversation turns (each sentence embedded as ``Speaker: sentence``, as a turn is).

    python bench/locomo_sentence_scores.py COPY --beta 0.5 [--turn-beta 0.5] --cache C -- \\
        --reuse COPY --now 2026-12-05T12:00:00+00:00 --conversations 26,30,41 \\
        --plan default --out OUT --details DETAILS
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))


def turn_sentences(speaker: str, text: str) -> list[str]:
    """A turn's sentences as its vector's text is written (``Speaker: sentence``)."""
    from omoide.engine.consolidate import split_sentences
    from omoide.service.passages import turn_passage

    return [turn_passage(speaker, s) for s in split_sentences(text)]


def sentence_vectors(
    app: Any, personas: Sequence[str], cache: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """Every sentence of the personas' multi-sentence notes and turns, embedded as a passage
    (cached by sentence text)."""
    from omoide.engine.consolidate import split_sentences

    todo: list[str] = []
    for name in personas:
        for memory in app.store.memories(name).list_recent(limit=1_000_000):
            sentences = split_sentences(memory.content)
            if len(sentences) > 1:
                todo.extend(s for s in sentences if s not in cache)
        sessions = app.store.sessions(name)
        for summary in app.store.sessions_meta(name).page(limit=100_000):
            for event in sessions.events_between(summary.session_id, 0, 10**9):
                sentences = turn_sentences(event.speaker, event.text)
                if len(sentences) > 1:
                    todo.extend(s for s in sentences if s not in cache)
    todo = list(dict.fromkeys(todo))
    for start in range(0, len(todo), 32):
        batch = todo[start : start + 32]
        for text, vector in zip(batch, app.search.embedder.embed_passages(batch), strict=True):
            cache[text] = np.asarray(vector, dtype=np.float32)
    return cache


def maxp(whole: float, sentences: Sequence[float], beta: float) -> float:
    """A note's semantic score: (1 − β) × its whole score + β × the better of its whole score
    and its best sentence's (a note of one sentence, or none scored, keeps its score)."""
    if not sentences:
        return whole
    return (1 - beta) * whole + beta * max(whole, max(sentences))


def patch(beta: float, cache: dict[str, np.ndarray], turn_beta: float = 0.0) -> None:
    """Replace ``NoteTier.semantic`` (and ``TurnTier.semantic`` when ``turn_beta`` > 0) by the
    MaxP blend above (in this process only)."""
    from omoide.engine.consolidate import split_sentences
    from omoide.engine.fusion import Scored
    from omoide.service import retrieval
    from omoide.store.vectors import language_of

    whole = retrieval.NoteTier.semantic

    def semantic(
        self: Any, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]:
        found = whole(self, query_vector, query=query, limit=limit, allowed=allowed)
        rows = self.memories.by_ids([s.id for s in found])
        out = []
        for item in found:
            memory = rows.get(item.id)
            sentences = split_sentences(memory.content) if memory is not None else []
            if len(sentences) < 2 or any(s not in cache for s in sentences):
                out.append(item)
                continue
            scores = self.memories.vectors.score_vectors(
                query_vector,
                np.stack([cache[s] for s in sentences]),
                [language_of(s) for s in sentences],
                centred_for=query,
            )
            out.append(Scored(item.id, maxp(item.score, scores, beta)))
        out.sort(key=lambda s: (-s.score, s.id))
        return out

    retrieval.NoteTier.semantic = semantic
    turns = retrieval.TurnTier.semantic

    def turn_semantic(
        self: Any, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]:
        found = turns(self, query_vector, query=query, limit=limit, allowed=allowed)
        events = self.sessions.events_by_ids([s.id for s in found])
        out = []
        for item in found:
            event = events.get(item.id)
            sentences = turn_sentences(event.speaker, event.text) if event is not None else []
            if len(sentences) < 2 or any(s not in cache for s in sentences):
                out.append(item)
                continue
            scores = self._index.score_vectors(
                query_vector,
                np.stack([cache[s] for s in sentences]),
                [language_of(s) for s in sentences],
                centred_for=query,
            )
            out.append(Scored(item.id, maxp(item.score, scores, turn_beta)))
        out.sort(key=lambda s: (-s.score, s.id))
        return out

    if turn_beta > 0:
        retrieval.TurnTier.semantic = turn_semantic


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--beta", type=float, default=0.5)
    parser.add_argument("--turn-beta", type=float, default=0.0)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--conversations", default="26,30,41")
    args = parser.parse_args(argv[:split])
    from lib.harness import open_app

    cache: dict[str, np.ndarray] = {}
    if args.cache.exists():
        cache = pickle.loads(args.cache.read_bytes())
    rest = argv[split + 1 :]
    now = datetime.fromisoformat(rest[rest.index("--now") + 1]) if "--now" in rest else None
    app = open_app(args.folder, None, now)
    wanted = [
        p.name
        for p in app.store.list_personas()
        if p.name.split("-")[1] in args.conversations.split(",")
    ]
    cache = sentence_vectors(app, wanted, cache)
    args.cache.write_bytes(pickle.dumps(cache))
    app.close()
    patch(args.beta, cache, args.turn_beta)
    import locomo

    locomo.main(rest)


if __name__ == "__main__":
    main()
