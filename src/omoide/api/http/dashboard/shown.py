"""Stored text as a dashboard page shows it: each control character marked, never raw.

A memory, a turn or a block may hold ESC, another C0 or C1 control, DEL or a bidirectional
embedding, override or isolate (U+202A-U+202E, U+2066-U+2069): the API keeps content as it
was sent. Written raw into a page, a U+202E ("right-to-left override") shows the words after
it reversed, and the others can hide or disguise what the text says ("Trojan Source"). So
every value a template writes is shown with each one as ``⟨U+202E⟩`` (:func:`finalize`, the
templates' ``finalize``): in text and in attributes alike, as plain text the autoescaping
then escapes. Tab and line breaks stay (multi-line text keeps its lines).

An editor (a ``<textarea>``) holds the text as stored instead (:func:`as_stored`): what it
holds is what a save sends back, so marking there would change the stored text. Pure; the
stored text is never changed here.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from omoide.service.validate import TEXT_CONTROLS

__all__ = ["as_stored", "finalize", "has_controls", "marked"]

_CONTROL = re.compile(f"[{TEXT_CONTROLS}]")


def marked(text: str) -> str:
    """``text`` with each control character (but tab and line breaks) as ``⟨U+XXXX⟩``."""
    return _CONTROL.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)


def has_controls(text: str) -> bool:
    """Whether :func:`marked` marks something in ``text``."""
    return _CONTROL.search(text) is not None


def finalize(value: Any) -> Any:
    """What a template writes for ``value``: a string marked (:func:`marked`); markup the
    code made (a macro, ``tojson``, :func:`as_stored`) and other values as they are."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return marked(value)
    return value


def as_stored(text: str) -> Markup:
    """``text`` escaped but not marked, for an editor that must hold it as stored."""
    return escape(text)
