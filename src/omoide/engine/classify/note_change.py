"""The changes a note tells besides a state's new value or end, for ``note_close`` (pure).

Each kind is a module of its own, read on the note's sentences and the old memory's: a plan
called off or done (``note_plan``), a thing moved or a new home (``note_move``), a value
changed (``note_turn``), a when moved (``note_when``), a no turned round (``note_flip``), an
end in the first clause (``note_quit``), a count said as now (``note_tally``), a workplace or a
job by name (``note_work``), a household changed (``note_house``), one named who died
(``note_gone``), a diet turned round (``note_diet``). Here they are gathered into claims and
checked in turn against the old memory's. No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from omoide.engine.classify.base import Relation
from omoide.engine.classify.note_claim import Claim
from omoide.engine.classify.note_diet import diet_claims, diet_turned
from omoide.engine.classify.note_flip import flip_claims, flipped
from omoide.engine.classify.note_gone import gone, gone_claims
from omoide.engine.classify.note_house import house_changed, house_claims
from omoide.engine.classify.note_move import move_claims, moved
from omoide.engine.classify.note_plan import plan_claims, plan_ended
from omoide.engine.classify.note_quit import quit_claims, quitted
from omoide.engine.classify.note_tally import tallied, tally_claims
from omoide.engine.classify.note_turn import turn_claims, turned
from omoide.engine.classify.note_when import when_claims, when_moved
from omoide.engine.classify.note_work import work_claims, work_moved
from omoide.engine.classify.signals import Finding

__all__ = ["change_claims", "change_closes"]


def change_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """The claims of every kind here in ``sentences`` (a subject, None when unknown, and the
    rest of each sentence as written); an ``old`` memory's with the changes it tells itself,
    which a note telling them again does not make new."""
    found = [
        c
        for read in (
            plan_claims,
            move_claims,
            turn_claims,
            when_claims,
            flip_claims,
            quit_claims,
            tally_claims,
            work_claims,
            house_claims,
            gone_claims,
            diet_claims,
        )
        for c in read(sentences, lang, old=old)
    ]
    return found + change_claims(sentences, lang, old=False) if old else found


def _names(named: Iterable[str]) -> str:
    return "/".join(sorted(named))


def _tallied(was: Claim, now: Claim) -> set[str]:
    return {now.frame} if now.amount is not None and tallied(was, now) else set()


def _tally_reason(now: Claim, named: set[str]) -> str:
    amount = f"{now.amount.value:g}" if now.amount is not None else "?"
    return f"{now.frame} now {amount} (count said as now)"


# Each kind in the order tried: what of the old claim the new one ends (empty: nothing) and the
# reason it gives.
_KINDS: tuple[tuple[Callable[[Claim, Claim], set[str]], Callable[[Claim, set[str]], str]], ...] = (
    (plan_ended, lambda now, named: f"plan {now.cue} {_names(named)}"),
    (moved, lambda now, named: f"{now.shape} {_names(named)}"),
    (turned, lambda now, named: f"changed ({now.cue}) {_names(named)}"),
    (when_moved, lambda now, named: f"when now {_names(now.span)}, not {_names(named)}"),
    (flipped, lambda now, named: f"a no turned round, {_names(named)}"),
    (quitted, lambda now, named: f"ended {_names(named)} ({now.cue}, first clause)"),
    (
        work_moved,
        lambda now, named: (
            f"works {'as' if now.frame == 'job' else 'at'} "
            f"{_names(now.value)} now, not {_names(named)}"
        ),
    ),
    (_tallied, _tally_reason),
    (house_changed, lambda now, named: f"household changed ({now.cue or 'now'})"),
    (gone, lambda now, named: f"{_names(named)} died"),
    (diet_turned, lambda now, named: f"kept off {_names(named)}, takes it now"),
)


def change_closes(before: Sequence[Claim], after: Sequence[Claim]) -> Finding | None:
    """CONTRADICTORY when a claim of the note ends one of the old memory's, else None."""
    told = set(before)
    for was in before:
        for now in after:
            if now in told:
                continue  # the old memory told this change already
            for ends, reason in _KINDS:
                named = ends(was, now)
                if named:
                    return Finding(Relation.CONTRADICTORY, 0.9, f"note: {reason(now, named)}")
    return None
