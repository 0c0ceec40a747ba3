"""The offline stage-4 summary (CompressStep without an LLM): extractive, from the consolidation
engine's notes of the turns being summarised. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.engine.compact_tokens import Message, message_text
from omoide.engine.consolidate import EventText, consolidate_offline
from omoide.engine.lang import is_japanese

__all__ = ["OFFLINE_WINDOW", "offline_summary"]

OFFLINE_WINDOW = 40  # messages the offline summary reads, counted back from the cut


def offline_summary(
    old: Sequence[Message],
    *,
    max_chars: int,
    user: str = "User",
    assistant: str = "Assistant",
    window: int = OFFLINE_WINDOW,
) -> str:
    """An extractive summary of the last ``window`` old messages: the consolidation engine's
    notes, the most important that fit in ``max_chars``, in conversation order; when no turn
    says anything note-worthy, the user's own lines.

    Only a window: what was said long before is what the persona's memory (notes consolidated
    from the recorded turns, injected by PrepareStep) already carries, and the engine's cost
    grows with the turns it reads.
    """
    events = [
        EventText(
            event_id=i,
            speaker=user if m.get("role") == "user" else assistant,
            role="user" if m.get("role") == "user" else "assistant",
            text=" ".join(message_text(m).split()),
        )
        for i, m in enumerate(old[-window:] if window > 0 else old)
        if m.get("role") in ("user", "assistant") and message_text(m).strip()
    ]
    if not events:
        return ""
    notes = [
        (n.importance, n.source_event_ids[0] if n.source_event_ids else 0, n.content)
        for n in consolidate_offline(events).notes
    ]
    if not notes:
        notes = [(0.0, e.event_id, e.text) for e in events if e.role == "user"]
    if not notes:
        return ""
    japanese = is_japanese(" ".join(text for *_, text in notes))
    chosen, used = [], 0
    for note in sorted(notes, key=lambda n: (-n[0], n[1])):
        cost = len(_sentence(note[2])) + (0 if japanese else 1)
        if used + cost <= max_chars:
            chosen.append(note)
            used += cost
    if not chosen:  # even the best note is too long: cut it
        chosen = [max(notes, key=lambda n: n[0])]
    text = ("" if japanese else " ").join(
        _sentence(n[2]) for n in sorted(chosen, key=lambda n: n[1])
    )
    return text if len(text) <= max_chars else text[: max(max_chars - 1, 0)].rstrip() + "…"


def _sentence(text: str) -> str:
    text = text.strip()
    return (
        text if not text or text[-1] in ".!?。！？" else text + ("。" if is_japanese(text) else ".")
    )
