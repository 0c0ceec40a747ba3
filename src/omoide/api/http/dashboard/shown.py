"""Stored text as a dashboard page shows it: each control or invisible format character
marked, never raw.

A memory, a turn or a block may hold ESC, another C0 or C1 control, DEL or a bidirectional
embedding, override or isolate (U+202A-U+202E, U+2066-U+2069): the API keeps content as it
was sent. Written raw into a page, a U+202E ("right-to-left override") shows the words after
it reversed, and the others can hide or disguise what the text says ("Trojan Source"). So
every value a template writes is shown with each one as ``⟨U+202E⟩`` (:func:`finalize`, the
templates' ``finalize``): in text and in attributes alike, as plain text the autoescaping
then escapes. Tab and line breaks stay (multi-line text keeps its lines).

The invisible format characters (Unicode category Cf) that can hide or disguise text are
marked the same way (:data:`INVISIBLE`): a zero-width space (U+200B), LRM/RLM (U+200E/F) and
the Arabic letter mark (U+061C), the word joiner and invisible operators (U+2060-U+2064), the
deprecated format controls (U+206A-U+206F), a zero-width no-break space (U+FEFF, a BOM), the
soft hyphen (U+00AD: unseen mid-line, "pay\u00adpal" reads "paypal"), the interlinear
annotation controls (U+FFF9-U+FFFB) and the tag characters (U+E0001, U+E0020-U+E007F: unseen
ASCII a page would carry). Kept as written, because scripts and emoji people write need
them and they disguise nothing there:
- ZWNJ and ZWJ (U+200C, U+200D) after a character beyond Latin (U+0370 and up: Persian,
  the Indic scripts, emoji sequences such as 👩‍💻) that is not itself marked; after Latin or
  ASCII (``pay\u200dpal``), at the start, or after a marked character, they only hide, and
  are marked;
- the tags of an emoji tag sequence (a subdivision flag: U+1F3F4, tags, U+E007F);
- the Cf characters that show a sign or shape a script: the prepended concatenation marks
  (U+0600-U+0605, U+06DD, U+070F, U+0890-U+0891, U+08E2, U+110BD, U+110CD), the Mongolian
  vowel separator (U+180E), and the Egyptian hieroglyph, shorthand and musical format controls
  (U+13430-U+1343F, U+1BCA0-U+1BCA3, U+1D173-U+1D17A).

An editor (a ``<textarea>``) holds the text as stored instead (:func:`as_stored`): what it
holds is what a save sends back, so marking there would change the stored text. Pure; the
stored text is never changed here.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from omoide.service.validate import TEXT_CONTROLS

__all__ = ["INVISIBLE", "JOINERS", "as_stored", "finalize", "has_controls", "marked"]

JOINERS = "\u200c\u200d"
"""ZWNJ and ZWJ: marked unless they follow a character beyond Latin that is not marked."""

INVISIBLE = (
    "\u00ad\u061c\u200b" + JOINERS + "\u200e\u200f\u2060-\u2064\u206a-\u206f\ufeff"
    "\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f"
)
"""The format characters marked as controls are (a regex class's contents; module docstring)."""

_FLAG_TAGS = "\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f"  # kept whole
_SHOWN = re.compile(f"{_FLAG_TAGS}|[{TEXT_CONTROLS}{INVISIBLE}]")
_LATIN_END = 0x370  # a joiner after a character below this only hides


def marked(text: str) -> str:
    """``text`` with each control character (but tab and line breaks) and each invisible
    format character (:data:`INVISIBLE`, joiners in context) as ``⟨U+XXXX⟩``."""
    after_marked: set[int] = set()  # the index just past each character marked so far

    def shown(match: re.Match[str]) -> str:
        found, at = match.group(), match.start()
        if len(found) > 1:  # an emoji flag's tag sequence
            return found
        if (
            found in JOINERS
            and at > 0
            and ord(text[at - 1]) >= _LATIN_END
            and at not in after_marked
        ):
            return found
        after_marked.add(at + 1)
        return f"⟨U+{ord(found):04X}⟩"

    return _SHOWN.sub(shown, text)


def has_controls(text: str) -> bool:
    """Whether :func:`marked` marks something in ``text``."""
    return _SHOWN.search(text) is not None and marked(text) != text


def finalize(value: Any) -> Any:
    """What a template writes for ``value``: a string marked (:func:`marked`); markup the
    code made (a macro, ``tojson``, :func:`as_stored`) and other values as they are."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return marked(value)
    return value


def as_stored(text: str) -> Markup:
    """``text`` escaped but not marked, for an editor that must hold it as stored."""
    return escape(text)
