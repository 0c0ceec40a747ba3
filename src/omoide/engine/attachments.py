"""What a turn carried besides its words, and how it reads as text (pure).

A client that shows the model an image posts its description in the event's metadata
(``{"image_caption": "a grey cat asleep on a keyboard"}``), never inside ``content``. Where a
turn is used as text (episode text, the turn's vector and keyword index, search excerpts) it
reads as its words followed by `` [image: <caption>]``; consolidation takes the caption as a
piece of its own (:class:`omoide.engine.consolidate.EventText`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["IMAGE_CAPTION", "MAX_CAPTION_CHARS", "image_caption", "turn_text"]

IMAGE_CAPTION = "image_caption"
MAX_CAPTION_CHARS = 2000


def image_caption(metadata: Mapping[str, Any] | None) -> str | None:
    """The caption of the image the turn shared, if any (blank counts as none)."""
    value = (metadata or {}).get(IMAGE_CAPTION)
    return value.strip() or None if isinstance(value, str) else None


def turn_text(content: str, metadata: Mapping[str, Any] | None) -> str:
    """The turn as text: its words, then the shared image's caption."""
    caption = image_caption(metadata)
    return f"{content} [image: {caption}]" if caption else content
