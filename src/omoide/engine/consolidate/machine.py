"""Pasted machine text: a table, a log, a price list, a dump (pure).

A person may paste what a machine wrote, or a table, into a chat. The turn is kept in its
episode (nothing said is lost, and an excerpt still shows it), but consolidation does not make a
note of it: its sentences are not statements, and a note of it is noise in every later search.
The test is measured on the shape of the text, never on its words. A line reads as machine text
when it has

- columns: two or more tabs or ``|`` bars, or two or more gaps of three or more spaces
  between words ("GP-001   size 21 cm   price …"),
- a separator run: four or more of ``-=_*#~+`` in a row ("-----", "====="), or a word that is
  one character ten times or more ("xxxxxxxxxx", ".........."; "Nooooooooooo" is a word),
- a token of :data:`LONG_TOKEN` characters or more that is not a web address (a hash, base64,
  padding),
- mostly digits and symbols: at least :data:`SYMBOL_SHARE` of its visible characters, over
  :data:`MIN_SYMBOL_LINE` of them (a log line, a row of numbers; a sentence with a date or a
  price is far below it), or
- a very long line with no sentence end: :data:`LONG_LINE` characters or more and no ``.!?。！？``
  (a CSV row, minified data; people end sentences).

A turn is mostly machine text when such lines hold at least :data:`MACHINE_SHARE` of its visible
characters.
"""

from __future__ import annotations

import re

__all__ = [
    "LONG_LINE",
    "LONG_TOKEN",
    "MACHINE_SHARE",
    "MIN_SYMBOL_LINE",
    "SYMBOL_SHARE",
    "is_machine_line",
    "is_machine_text",
    "machine_share",
]

LONG_TOKEN = 40
LONG_LINE = 400
SYMBOL_SHARE = 0.5
MIN_SYMBOL_LINE = 40
MACHINE_SHARE = 0.5

_COLUMN_BARS = re.compile(r"[\t|]")
_WIDE_GAP = re.compile(r"\S {3,}(?=\S)")
_SEPARATOR_RUN = re.compile(r"([-=_*#~+])\1{3,}|(?<!\S)(\S)\2{9,}(?!\S)")
_WEB_ADDRESS = re.compile(r"^(?:https?://|www\.)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?。！？]")


def is_machine_line(line: str) -> bool:
    """Whether one line reads as a table row, a log line or a dump (see the module doc)."""
    visible = "".join(line.split())
    if not visible:
        return False
    if len(_COLUMN_BARS.findall(line)) >= 2 or len(_WIDE_GAP.findall(line)) >= 2:
        return True
    if _SEPARATOR_RUN.search(line):
        return True
    if any(len(token) >= LONG_TOKEN and not _WEB_ADDRESS.match(token) for token in line.split()):
        return True
    if len(visible) >= MIN_SYMBOL_LINE:
        symbols = sum(1 for ch in visible if not ch.isalpha())
        if symbols >= SYMBOL_SHARE * len(visible):
            return True
    return len(line.strip()) >= LONG_LINE and not _SENTENCE_END.search(line)


def machine_share(text: str) -> float:
    """The share of ``text``'s visible characters on lines that read as machine text."""
    sizes = [(len("".join(line.split())), is_machine_line(line)) for line in text.splitlines()]
    total = sum(size for size, _ in sizes)
    return sum(size for size, machine in sizes if machine) / total if total else 0.0


def is_machine_text(text: str) -> bool:
    """Whether ``text`` is mostly a pasted table, log, price list or dump."""
    return machine_share(text) >= MACHINE_SHARE
