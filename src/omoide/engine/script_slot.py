"""A place near the top for the best note written in another script than the query (pure).

A multilingual embedder scores a question against notes in its own script higher than against
notes in another script, even after language centring: for a question asked in one language
whose answer was written in the other (an invented example: "When is the kite festival?"
against a note written in Japanese), the answer is usually the best candidate of its script,
but a same-script note on the same topic (sharing the person's name, or a word of the
question) sits above it. Over the retrieval sets the answer was the first other-script
candidate in two thirds of the cross-lingual questions it did not win
(``bench/results/retrieval_round32.md``).

So, over the first ``within`` candidates of a fused ranking, the best one in another script
than the query is moved up to place ``slot`` (2: the best match keeps the first place) — when
it is already within that head and its score lies at least ``floor`` of the way from the
head's lowest score to its highest (a weak other-script match stays where it is), and, when a
second embedder's cosines are given (the search companion), unless that embedder scores the
note it would displace more than ``margin`` above it (over the retrieval sets this kept
paraphrases, whose answer is often that displaced note, where they were). Nothing enters the
head from below it and nothing leaves it: only the order inside it changes. The moved
candidate gets a score between its new neighbours', so what comes after (strength, the merge
with conversation excerpts) sees scores on the same scale. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from omoide.engine.errors import ParameterError
from omoide.engine.fusion import Scored

__all__ = ["other_script_slot"]


def other_script_slot(
    ranked: Sequence[Scored],
    script_of: Mapping[int, int | None],
    query_script: int,
    *,
    slot: int = 2,
    within: int = 10,
    floor: float = 0.3,
    second_opinion: Mapping[int, float] | None = None,
    margin: float = 0.1,
) -> list[Scored]:
    """``ranked`` (best first) with its best candidate in another script than ``query_script``
    among the first ``within`` moved up to place ``slot`` (1-based, at least 2), when it is
    below it and its score is at least ``floor`` of the way from the ``within``-th score (the
    last, when fewer) to the first. ``script_of`` maps ids to script groups; an id missing
    there or mapped to None counts as no script (never moved). With ``second_opinion`` (id →
    another embedder's raw cosine with the query), the note is moved only if its cosine there
    is at least the displaced note's less ``margin`` (a note either lacks: no veto). Unchanged
    when no candidate qualifies."""
    if slot < 2:
        raise ParameterError(
            "slot must be at least 2 (the best match keeps the first place)", field="slot"
        )
    if within < 1:
        raise ParameterError("within must be at least 1", field="within")
    if not 0.0 <= floor <= 1.0:
        raise ParameterError("floor must be within [0, 1]", field="floor")
    if margin < 0.0:
        raise ParameterError("margin must be non-negative", field="margin")
    items = list(ranked)
    head = items[:within]
    if len(head) <= slot:
        return items
    found = next(
        (
            i
            for i, item in enumerate(head)
            if (script := script_of.get(item.id)) is not None and script != query_script
        ),
        None,
    )
    if found is None or found < slot:  # none in the head, or already at the slot or above
        return items
    top, low = head[0].score, head[-1].score
    if top > low and (head[found].score - low) / (top - low) < floor:
        return items
    if second_opinion is not None:
        mine = second_opinion.get(head[found].id)
        theirs = second_opinion.get(items[slot - 1].id)
        if mine is not None and theirs is not None and mine < theirs - margin:
            return items  # the second opinion puts the note it would displace well above it
    # between the scores of the candidates it now stands between (a tie when they tie)
    score = (items[slot - 2].score + items[slot - 1].score) / 2.0
    return [
        *items[: slot - 1],
        Scored(head[found].id, score),
        *items[slot - 1 : found],
        *items[found + 1 :],
    ]
