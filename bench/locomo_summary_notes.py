"""Probe for issue 8: extractive summary notes added to a kept ingest, scored without a re-ingest.

Multi-hop questions miss evidence spread over four to six sessions (``locomo_round25.md``). The
lever probed here: one more note per topic or per segment that gathers what several notes say,
citing (``sources``) all their turns, so that one result could point at several evidence turns.
It is added to a **copy** of a data folder kept by ``bench/locomo.py --keep``; the kept notes,
turns and episodes are unchanged, so ``bench/locomo.py --reuse COPY --now ... --plan default``
against the same run over an untouched copy isolates the summaries (pair the two with
``bench/locomo_paired.py``). Offline and extractive: each summary is the consolidated notes'
own sentences, each with its closing date, joined by "; ".

Modes (``--mode``):

- ``topic``: per speaker (of a note's first source turn), a note and its nearest notes from
  *other* episodes whose raw cosine is at least ``--tau`` (one per episode, at most ``--max``
  in all, at least ``--min``); a group sharing ``--overlap`` (Jaccard) of its notes with an
  earlier one is dropped. Each note gives its first sentence.
- ``keyword``: per speaker, the notes that share a content word (crude English stem) found in
  ``--min`` to ``--maxdf`` episodes (one note per episode, at most ``--max``), the commonest
  words first; each note gives the sentence holding the word, or ``--span`` words each side.
- ``segment``: per episode with at least ``--min`` notes, its ``--max`` most important notes.

``--vector embed`` (default) embeds the summary's text as any note is; ``mean`` uses the
normalised mean of its notes' vectors. Dedup is skipped for summaries: the write path would
otherwise fold a summary into one of its own notes and add all the group's turns to that
note's sources, which is not the lever. Evolution is not run on them.

    PYTHONPATH=src:bench python bench/locomo_summary_notes.py COPY --mode segment --max 6

Never point it at a folder you want to keep: it adds notes in place.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from lib.harness import open_app
from lib.reports import log
from omoide.engine.lang import note_content_words
from omoide.model.memory import MemoryKind, NewMemory

NOW = "2026-12-01T17:00:00+00:00"
_DATE = re.compile(r"\s*\(([^()]*\d{4})\)\s*$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Note:
    id: int
    content: str
    episode: str
    created_at: str
    importance: float
    speaker: str
    events: tuple[int, ...]


def stem(word: str) -> str:
    """A crude English stem: "painted", "paints", "painting" → "paint"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def split_date(content: str) -> tuple[str, str | None]:
    """A note's words and its closing date ("… (8 May 2023)" → words, "8 May 2023")."""
    found = _DATE.search(content)
    return (content[: found.start()], found.group(1)) if found else (content, None)


def dated(text: str, date: str | None) -> str:
    return f"{text} ({date})" if date else text


def cut(text: str, chars: int) -> str:
    if len(text) > chars:
        text = text[:chars].rsplit(" ", 1)[0] + "…"
    return text.rstrip(".!")


def first_sentence(content: str, chars: int) -> str:
    body, date = split_date(content)
    return dated(cut(_SENTENCE.split(body.strip())[0], chars), date)


def stems(text: str) -> set[str]:
    return {stem(w) for w in note_content_words(text)}


def sentence_on(content: str, term: str, chars: int, span: int) -> str:
    """The sentence holding ``term`` (or ``span`` words each side of it), with the date."""
    body, date = split_date(content)
    if span:
        words = body.split()
        at = next((i for i, w in enumerate(words) if term in stems(w)), 0)
        lo, hi = max(0, at - span), min(len(words), at + span + 1)
        text = " ".join(words[lo:hi]).strip(" .,!;:-")
        return dated(("…" if lo else "") + text + ("…" if hi < len(words) else ""), date)
    sentences = _SENTENCE.split(body.strip())
    pick = next((s for s in sentences if term in stems(s)), sentences[0])
    return dated(cut(pick, chars), date)


def terms_of(content: str, names: set[str]) -> set[str]:
    return {
        stem(w)
        for w in note_content_words(split_date(content)[0])
        if w.isalpha() and len(w) >= 4 and w not in names
    }


def overlaps(group: Sequence[int], groups: Sequence[Sequence[int]], limit: float) -> bool:
    mine = set(group)
    return any(len(mine & set(g)) / len(mine | set(g)) >= limit for g in groups)


def topic_groups(
    notes: list[Note], sims: np.ndarray, args: argparse.Namespace
) -> list[tuple[list[int], str]]:
    groups: list[list[int]] = []
    for i, note in enumerate(notes):
        near = sorted(
            (
                j
                for j, other in enumerate(notes)
                if j != i
                and other.speaker == note.speaker
                and other.episode != note.episode
                and sims[i, j] >= args.tau
            ),
            key=lambda j: -sims[i, j],
        )
        chosen, episodes = [i], {note.episode}
        for j in near:
            if notes[j].episode not in episodes and len(chosen) < args.max:
                chosen.append(j)
                episodes.add(notes[j].episode)
        if len(chosen) >= args.min and not overlaps(chosen, groups, args.overlap):
            groups.append(chosen)
    return [
        (g, "; ".join(first_sentence(notes[i].content, args.chars) for i in sorted(g)))
        for g in groups
    ]


def keyword_groups(notes: list[Note], args: argparse.Namespace) -> list[tuple[list[int], str]]:
    names = {w.lower() for n in notes for w in n.speaker.split()}
    terms = [terms_of(n.content, names) for n in notes]
    out: list[tuple[list[int], str]] = []
    for speaker in sorted({n.speaker for n in notes}):
        by_term: dict[str, list[int]] = {}
        for i, n in enumerate(notes):
            if n.speaker == speaker:
                for term in terms[i]:
                    by_term.setdefault(term, []).append(i)
        ranked = []
        for term, members in by_term.items():
            episodes: set[str] = set()
            group = []
            for i in members:
                if notes[i].episode not in episodes:
                    episodes.add(notes[i].episode)
                    group.append(i)
            if args.min <= len(group) <= args.maxdf:
                ranked.append((len(group), term, group[: args.max]))
        for _, term, group in sorted(ranked, key=lambda r: (-r[0], r[1])):
            if overlaps(group, [g for g, _ in out], args.overlap):
                continue
            pieces = [sentence_on(notes[i].content, term, args.chars, args.span) for i in group]
            head = f"{speaker}, {term}: " if args.span else ""
            out.append((group, head + "; ".join(pieces)))
    return out


def segment_groups(notes: list[Note], args: argparse.Namespace) -> list[tuple[list[int], str]]:
    by_episode: dict[str, list[int]] = {}
    for i, n in enumerate(notes):
        by_episode.setdefault(n.episode, []).append(i)
    out = []
    for members in by_episode.values():
        if len(members) >= args.min:
            group = sorted(sorted(members, key=lambda i: -notes[i].importance)[: args.max])
            out.append(
                (group, "; ".join(first_sentence(notes[i].content, args.chars) for i in group))
            )
    return out


def load_notes(conn: sqlite3.Connection, persona_id: int) -> tuple[list[Note], np.ndarray]:
    """The persona's active consolidated notes (creation order) and their unit vectors."""
    sources: dict[int, list[int]] = {}
    speakers: dict[int, str] = {}
    for memory_id, event_id, speaker in conn.execute(
        "SELECT s.memory_id, s.event_id, e.speaker FROM memory_sources s JOIN session_events "
        "e ON e.id = s.event_id WHERE e.persona_id = ? ORDER BY e.id",
        (persona_id,),
    ):
        sources.setdefault(memory_id, []).append(event_id)
        speakers.setdefault(memory_id, speaker)
    rows = [
        r
        for r in conn.execute(
            "SELECT m.id, m.content, m.source_ref, m.created_at, m.importance, v.vector "
            "FROM memories m JOIN memory_vectors v ON v.memory_id = m.id WHERE m.persona_id = ? "
            "AND m.status = 'active' AND m.source = 'consolidation' ORDER BY m.created_at, m.id",
            (persona_id,),
        )
        if r[0] in sources
    ]
    notes = [Note(r[0], r[1], r[2], r[3], r[4], speakers[r[0]], tuple(sources[r[0]])) for r in rows]
    vectors = np.stack([np.frombuffer(r[5], dtype=np.float32) for r in rows])
    return notes, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add = parser.add_argument
    add("folder", type=Path, help="A COPY of a kept data folder (notes are added).")
    add("--mode", choices=("topic", "keyword", "segment"), default="segment")
    add("--tau", type=float, default=0.92, help="topic: raw cosine to join a group")
    add("--min", type=int, default=3, help="fewest notes a summary gathers")
    add("--max", type=int, default=5, help="most notes a summary gathers")
    add("--maxdf", type=int, default=8, help="keyword: most episodes a word may span")
    add("--chars", type=int, default=120, help="longest piece of one note")
    add("--span", type=int, default=0, help="keyword: words each side of the word (0: sentence)")
    add("--overlap", type=float, default=0.5, help="drop a group sharing this much of another")
    add("--vector", choices=("embed", "mean"), default="embed")
    add("--conversations", default="26,30,41", help="default 26,30,41")
    add("--now", default=NOW, help="the clock (ISO)")
    args = parser.parse_args(argv)
    wanted = [c for c in args.conversations.split(",") if c]
    app = open_app(args.folder, now=datetime.fromisoformat(args.now))
    # Internal on purpose: the probe writes summaries past dedup (see the docstring), which the
    # write path rightly offers no switch for.
    app.memories._find_duplicate = lambda *a, **k: None
    conn = sqlite3.connect(args.folder / "omoide.db")
    for persona_id, name in conn.execute("SELECT id, name FROM personas ORDER BY id").fetchall():
        if not any(name.startswith(f"locomo-{c}-") for c in wanted):
            continue
        notes, vectors = load_notes(conn, persona_id)
        if args.mode == "topic":
            groups = topic_groups(notes, vectors @ vectors.T, args)
        elif args.mode == "keyword":
            groups = keyword_groups(notes, args)
        else:
            groups = segment_groups(notes, args)
        made = 0
        for group, text in groups:
            members = [notes[i] for i in group]
            content = text + "."
            if args.vector == "mean":
                mean = vectors[group].mean(axis=0)
                vector = mean / np.linalg.norm(mean)
            else:
                vector = app.embedder.embed_passages([content])[0]
            new = NewMemory(
                content=content,
                kind=MemoryKind.FACT,
                importance=0.5,
                source="consolidation",
                source_ref=members[-1].episode,
                source_event_ids=tuple(sorted({e for n in members for e in n.events})),
                created_at=datetime.fromisoformat(max(n.created_at for n in members)),
            )
            made += (
                app.memories.create(name, new, changed_by="consolidation", vector=vector).status
                == "created"
            )
        log(f"{name}: {len(notes)} notes, {made} summaries")


if __name__ == "__main__":
    main()
