"""The changes a note tells besides a state's new value or end, for ``note_close`` (pure).

Each kind is a module of its own, read on the note's sentences and the old memory's: a plan
called off or done (``note_plan``). Here they are gathered into claims and checked in turn
against the old memory's. No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.engine.classify.base import Relation
from omoide.engine.classify.note_claim import Claim
from omoide.engine.classify.note_flip import flip_claims, flipped
from omoide.engine.classify.note_move import move_claims, moved
from omoide.engine.classify.note_plan import plan_claims, plan_ended
from omoide.engine.classify.note_quit import quit_claims, quitted
from omoide.engine.classify.note_tally import tallied, tally_claims
from omoide.engine.classify.note_turn import turn_claims, turned
from omoide.engine.classify.note_when import when_claims, when_moved
from omoide.engine.classify.note_work import work_claims, work_moved
from omoide.engine.classify.signals import Finding

__all__ = ["change_claims", "change_closes"]

def change_claims(sentences: Sequence[tuple[str | None, str]], lang: str, *,
                  old: bool) -> list[Claim]:
    """The claims of every kind here in ``sentences`` (a subject, None when unknown, and the
    rest of each sentence as written); an ``old`` memory's with the changes it tells itself,
    which a note telling them again does not make new."""
    found = [c for read in (plan_claims, move_claims, turn_claims, when_claims,
                                   flip_claims, quit_claims, tally_claims, work_claims)
             for c in read(sentences, lang, old=old)]
    return found + change_claims(sentences, lang, old=False) if old else found


def change_closes(before: Sequence[Claim], after: Sequence[Claim]) -> Finding | None:
    """CONTRADICTORY when a claim of the note ends one of the old memory's, else None."""
    told = set(before)
    for was in before:
        for now in after:
            if now in told:
                continue  # the old memory told this change already
            named = plan_ended(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: plan {now.cue} {'/'.join(sorted(named))}")
            named = moved(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: {now.shape} {'/'.join(sorted(named))}")
            named = turned(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: changed ({now.cue}) {'/'.join(sorted(named))}")
            named = when_moved(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: when now {'/'.join(sorted(now.span))}, "
                               f"not {'/'.join(sorted(named))}")
            named = flipped(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: a no turned round, {'/'.join(sorted(named))}")
            named = quitted(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: ended {'/'.join(sorted(named))} ({now.cue}, first clause)")
            named = work_moved(was, now)
            if named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: works at {'/'.join(sorted(now.value))} now, not "
                               f"{'/'.join(sorted(named))}")
            if tallied(was, now) and now.amount is not None:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: {now.frame} now {now.amount.value:g} (count said as now)")
    return None
