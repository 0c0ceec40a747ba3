"""Text primitives for offline consolidation: sentences and speaker labels (pure).

Shared by the scoring, rewriting and profile rules of consolidation. Only splitting lives here
(words come from :mod:`omoide.engine.lang`); nothing here decides what is worth remembering.
"""

from __future__ import annotations

import re

__all__ = [
    "split_sentences",
    "strip_speaker_labels",
    "voiced_sentences",
]


# A terminator ends an English sentence only before whitespace or the end ("3.5", "e.g.x" stay
# whole); the Japanese full-width ones end it wherever they stand. Closing quotes stay attached.
_BOUNDARY = re.compile(r"(?:[.!?]+|…)[\"'”’)\]]*(?=\s|$)|[。！？!?]+[」』）\"”’)]*")
# "Ken: …" / "花子：…" at a line start: a transcript's speaker label, never part of a note.
_SPEAKER_LABEL = re.compile(
    r"^[ \t]*(?:[A-Z][\w'’.\-]*(?:[ ][A-Z][\w'’.\-]*){0,2}|[^\s:：、。!?！？]{1,12})[ \t]*"
    r"(?::[ \t]+|：[ \t]*)",
    re.MULTILINE,
)
_ABBREVIATIONS = frozenset(
    {"mr.", "mrs.", "ms.", "dr.", "st.", "vs.", "e.g.", "i.e.", "etc.", "jr.", "sr.", "prof."}
)


def split_sentences(text: str) -> list[str]:
    """English and Japanese sentences in order; each line is split on its own, without the
    ``Name:`` speaker label a pasted transcript puts at its start."""
    out: list[str] = []
    for line in strip_speaker_labels(text).splitlines():
        out.extend(_split_plain(line))
    return out


def voiced_sentences(text: str) -> list[tuple[str, str | None]]:
    """:func:`split_sentences`, each with who says it: the ``Name:`` label of its line when the
    text is a pasted exchange (two labelled lines or more: "Ana: I got in!\nLeo: Well done."),
    else None (the turn's own speaker). One labelled line is not an exchange: "Update: I got
    the job." is the speaker's own line under a heading."""
    lines = text.splitlines()
    labels = [_SPEAKER_LABEL.match(line) for line in lines]
    exchange = sum(label is not None for label in labels) >= 2
    out: list[tuple[str, str | None]] = []
    for line, label in zip(lines, labels, strict=True):
        voice = _label_name(label) if exchange and label is not None else None
        out.extend((sentence, voice) for sentence in _split_plain(strip_speaker_labels(line)))
    return out


def _label_name(label: re.Match[str]) -> str:
    return label.group(0).strip().rstrip(":：").strip()


def strip_speaker_labels(text: str) -> str:
    """Remove ``Name:`` labels at line starts ("Ken: I moved." → "I moved.")."""
    return _SPEAKER_LABEL.sub("", text)


def _split_plain(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start : match.end()].strip()
        start = match.end()
        if pieces and _ends_with_abbreviation(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece}"
        elif piece:
            pieces.append(piece)
    rest = text[start:].strip()
    if rest:
        if pieces and _ends_with_abbreviation(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {rest}"
        else:
            pieces.append(rest)
    return pieces


def _ends_with_abbreviation(piece: str) -> bool:
    last = piece.rsplit(maxsplit=1)[-1].lower()
    return last in _ABBREVIATIONS
