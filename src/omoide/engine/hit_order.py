"""The order search results are shown in (pure; no I/O): the score as shown, the tie order
of two results that show the same score, and the one ranking of notes and conversation excerpts
in which each turn is shown once.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from omoide.engine.budget import fold_notes, foldable_notes
from omoide.model import SearchHit

__all__ = [
    "SCORE_DIGITS",
    "corroborated",
    "merge_ranked",
    "ordered_hits",
    "shown_score",
    "tie_order",
    "without_turns",
]

SCORE_DIGITS = 6  # the decimals of a result's score as the API and MCP show it


def shown_score(score: float) -> float:
    """A score as the API shows it (:data:`SCORE_DIGITS` decimals), which is what results are
    ordered by: two scores a client sees as equal are a tie, broken the same way on every
    store, rather than ordered by float noise below what is shown (the stores' arithmetic
    differs there: BM25 in FTS5 or in SQL, vectors in float32 in different orders)."""
    return round(score, SCORE_DIGITS)


def ordered_hits(hits: list[tuple[int, SearchHit]]) -> list[tuple[int, SearchHit]]:
    """Best score (as shown) first; on a tie a current fact before a closed one, a fact closed
    later before one closed earlier (a fact changed twice: its versions newest first; when it
    was closed, not the ``valid_until`` a plan given up keeps ahead: ``Memory.closed_since``),
    then the older row (lower row id: the order the memories were written in, the same on
    every store, where the key is random)."""
    return sorted(
        hits,
        key=lambda pair: tie_order(
            pair[1].score,
            not pair[1].extra.get("current", True),
            pair[1].memory.closed_since() if pair[1].memory is not None else None,
            pair[0],
        ),
    )


def tie_order(
    score: float, closed: bool, closed_since: datetime | None, row_id: int
) -> tuple[float, bool, float, int]:
    """The sort key of :func:`ordered_hits`, from a result's parts (a search that ranks
    candidates before reading them whole orders them by the same key). ``closed_since`` only
    orders closed facts: a current one's ``valid_until`` ahead is no end yet."""
    since = 0.0 if not closed or closed_since is None else closed_since.timestamp()
    return (-shown_score(score), closed, -since, row_id)


def merge_ranked(
    notes: list[SearchHit],
    episodes: list[SearchHit],
    top_k: int,
    *,
    trim: bool = True,
    fold: bool = True,
) -> list[SearchHit]:
    """Notes and episode excerpts in one ranking by their fused scores (both in [0, 1]); a note
    wins a tie. Measured on LoCoMo (bench/locomo.py --experiment score_order) against
    alternating the two lists: evidence recall +0.015, containment +0.009, with e5 and USE.

    An excerpt shows only turns that no result above it stands for (the source turn of a note
    above, or a turn an excerpt above already shows); one with nothing left is dropped. On the
    LoCoMo tuning conversations (26, 30, 41) this raised evidence recall within 1,000 tokens from
    0.827 to 0.835 at the same containment. ``trim=False`` (a plan's ``trim_cited``) keeps every
    excerpt whole.

    A note below an excerpt that shows its turn is folded into the excerpt: the turn's line is
    written in the note's words and the note is not shown again (``engine.budget``; a plan's
    ``fold_notes``). Dropping such a note outright cost containment (-0.056 on 26 and 30, and
    -0.029 on the tuning split in round 5), since a note states its fact with its date; folding
    keeps the note's words and frees the room of the turn's own line (recall 0.850 → 0.857,
    containment unchanged)."""
    tagged = [(h.score, 0, r, h) for r, h in enumerate(notes)]
    tagged += [(h.score, 1, r, h) for r, h in enumerate(episodes)]
    tagged.sort(key=lambda t: (-shown_score(t[0]), t[1], t[2]))
    foldable = foldable_notes(notes) if fold else {}
    folded: set[str] = set()  # keys of notes shown inside an excerpt above
    cited: set[int] = set()  # event ids a result above already stands for
    out: list[SearchHit] = []
    for *_, hit in tagged:
        if hit.type == "note" and hit.id in folded:
            continue
        turns = {source.event_id for source in hit.sources}
        if trim and hit.type == "episode" and turns & cited:
            trimmed = without_turns(hit, cited)
            if trimmed is None:
                continue
            hit = trimmed
        if foldable and hit.type == "episode":
            hit, into = fold_notes(
                hit,
                {
                    turn: note
                    for turn, note in foldable.items()
                    if turn not in cited and note.id not in folded
                },
            )
            folded.update(note.id for note in into)
        cited |= turns
        out.append(hit)
        if len(out) == top_k:
            break
    return out


def without_turns(hit: SearchHit, drop: set[int]) -> SearchHit | None:
    """An excerpt (a date header, then one line per source turn) without the lines of the turns
    in ``drop``; None when no line is left. An excerpt whose lines cannot be matched to its
    turns one to one (a turn written over several lines) is returned whole."""
    header, *lines = hit.content.split("\n")
    if len(lines) != len(hit.sources):
        return hit
    kept = [
        (line, source)
        for line, source in zip(lines, hit.sources, strict=True)
        if source.event_id not in drop
    ]
    if not kept:
        return None
    return replace(
        hit,
        content="\n".join([header, *(line for line, _ in kept)]),
        sources=tuple(source for _, source in kept),
    )


def corroborated(
    notes: list[SearchHit], excerpts: list[SearchHit], share: float
) -> list[SearchHit]:
    """The notes (best first) with each current note whose source turn one of ``excerpts``
    shows raised by ``share`` × the best such excerpt's score, at most a shown step under the
    search's best result (so the best result stays first), then re-ordered by score (a stable
    sort: ties keep their order). A closed note is never raised. Unchanged at share 0 or
    without excerpts.

    The two tiers read a conversation differently (a note in resolved, dated third-person
    words; a turn in the speaker's own), so a fact both find is likelier to answer; raising the
    note brings it into a reader's budget at about a third of an excerpt's length. Chosen
    leave-one-conversation-out on LoCoMo's tuning conversations (share 0.25 on each fold;
    bench/results/locomo50.md; first measured in round 30, locomo_round30.md)."""
    if share <= 0 or not excerpts or not notes:
        return notes
    by_turn: dict[int, float] = {}
    for excerpt in excerpts:
        for source in excerpt.sources:
            by_turn[source.event_id] = max(by_turn.get(source.event_id, 0.0), excerpt.score)
    cap = max(hit.score for hit in [*notes, *excerpts]) - 10**-SCORE_DIGITS
    out = []
    for note in notes:
        lift = max((by_turn.get(s.event_id, 0.0) for s in note.sources), default=0.0)
        if lift > 0 and note.extra.get("current", True) and note.score < cap:
            note = replace(note, score=min(note.score + share * lift, cap))
        out.append(note)
    return sorted(out, key=lambda hit: -shown_score(hit.score))
