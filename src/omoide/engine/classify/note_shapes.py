"""The note path's sure shapes read on a one-statement pair: a change a note would close on (pure).

**Trigger.** ``note_close.note_closes`` reads a consolidated note against an old memory and
closes only on shapes it is sure of, each read in one clause about the same subject as the
old memory's: a single-valued state with another value ("lives in Leeds" → "lives in York"),
an explicit end ("plays five-a-side" → "packed in the five-a-side", 新聞をやめた), a plan called
off, put off or done ("plans to visit Oregon at Easter" → "cancelled her Easter trip to
Oregon", 予定 → 中止・延期・合格), a "never" or a dislike turned round ("has never tried oysters" →
"now eats oysters every Sunday", 一度も…ない → 初めて…), a diet kept off now taken, a when
moved, a count said as now, one named who died (``note_change``'s kinds). Each needs the same
subject at the head of both clauses and no plan, wish, condition, report or past retold in
the new one ("might cancel", 中止するかも). Those readers were built on notes; here the same
function reads a one-statement new memory, which is a note of one sentence.

**Why.** The judge is tuned for precision (its thresholds, EN 0.91 / JA 0.80), so a change
said by meaning with little word overlap ("never → did", a plan put off, a habit given up)
stays open when its probability falls below them. On round 23's nested leave-one-writer-out
the note reader fired on 504 statement pairs of the writers, all CONTRADICTORY, 69 of which the
judge had left open (``bench/results/classify_round24_sure.md``).

**Outcome.** ``note_shape_close`` is 1 for such a pair: a sure close, not a feature the model
reads (``judge_signals.SURE_ONLY``, as ``from_to.changed_from_old``). The judge's vetoes and its
subject check still win (``learned.judge``). No I/O; deterministic.
"""

from __future__ import annotations

from omoide.engine.classify.note_close import note_closes

__all__ = ["NOTE_SHAPE_FEATURES", "note_shape_close", "note_shape_features", "note_shape_reason"]

NOTE_SHAPE_FEATURES: tuple[str, ...] = ("note_shape_close",)


def note_shape_reason(old: str, new: str, lang: str) -> str | None:
    """The note reader's reason when ``new`` surely closes ``old`` (both as written, framing
    such as "The user said …" already taken off), else None."""
    found = note_closes(old, new, lang)
    return None if found is None else found.reason.removeprefix("note: ")


def note_shape_close(old: str, new: str, lang: str) -> bool:
    """Whether ``new`` surely closes ``old`` by one of the note path's shapes."""
    return note_shape_reason(old, new, lang) is not None


def note_shape_features(old: str, new: str, lang: str) -> list[float]:
    """The NOTE_SHAPE_FEATURES row of a pair."""
    return [float(note_shape_close(old, new, lang))]
