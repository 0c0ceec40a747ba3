"""What a search shows once: a conversation turn and the note that stands for it (pure).

A default search ranks notes and conversation excerpts together. A consolidated note usually
stands for one turn (its ``sources``), and an excerpt shows that turn and its neighbours, so the
same fact can take room twice in a reader's context budget. The search already drops an
excerpt's line when a result *above* it stands for that turn (``SearchPlan.trim_cited``); this
module handles the other order, an excerpt above the note: the excerpt shows that turn **in the
note's words** (which carry the note's resolved names and dates) and the note is not shown again
on its own. Either way each turn is shown once, and where a note stands for it, as the note.

Only a note that stands for exactly one turn and is written on one line is folded: an excerpt
is one line per turn, and a note over several turns is not any one line. A note with a validity
end (closed, superseded, or valid until a date) is never folded: it is shown on its own, so its
end and successor stay visible to the reader (issue 8, "current facts first").

Measured on the LoCoMo tuning conversations (26, 30, 41; ``bench/results/locomo_variants.md``,
round 5): evidence recall within 1,000 tokens 0.850 → 0.857 (4 questions up, none down),
containment unchanged; on the validation conversations (42, 43) 0.809 → 0.810, containment
0.403 unchanged. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from omoide.model import SearchHit

__all__ = ["FOLDED_KEY", "fold_notes", "foldable_notes"]

FOLDED_KEY = "folded_notes"  # an excerpt's extra: the keys of the notes shown in its lines


def foldable_notes(notes: Iterable[SearchHit]) -> dict[int, SearchHit]:
    """Turn (event id) → the best-ranked note that stands for that turn alone, is one line and
    has no validity end (``notes`` best first)."""
    out: dict[int, SearchHit] = {}
    for note in notes:
        if (
            note.type == "note"
            and len(note.sources) == 1
            and "\n" not in note.content
            and _open_ended(note)
        ):
            out.setdefault(note.sources[0].event_id, note)
    return out


def _open_ended(note: SearchHit) -> bool:
    """No validity end and no successor: nothing a rendering of the note alone would mark."""
    memory = note.memory
    return memory is None or (memory.valid_until is None and memory.superseded_by is None)


def fold_notes(
    excerpt: SearchHit, by_turn: Mapping[int, SearchHit]
) -> tuple[SearchHit, list[SearchHit]]:
    """The excerpt with each line whose turn a note of ``by_turn`` stands for written in that
    note's words, and the notes so folded (in line order). The excerpt's sources, score and
    order are unchanged; the folded notes' keys are added to its ``extra`` under
    :data:`FOLDED_KEY`. An excerpt whose lines do not match its turns one to one (a turn
    written over several lines) is returned as it is."""
    header, *lines = excerpt.content.split("\n")
    if len(lines) != len(excerpt.sources) or not by_turn:
        return excerpt, []
    folded: list[SearchHit] = []
    shown = []
    for line, source in zip(lines, excerpt.sources, strict=True):
        note = by_turn.get(source.event_id)
        if note is None:
            shown.append(line)
            continue
        folded.append(note)
        shown.append(note.content)
    if not folded:
        return excerpt, []
    extra = {**excerpt.extra, FOLDED_KEY: [n.id for n in folded]}
    return replace(excerpt, content="\n".join([header, *shown]), extra=extra), folded
