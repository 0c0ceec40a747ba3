"""No benchmark text in production prose: a quoted example in a comment or docstring under
``src/omoide/`` is invented, never a sentence (or a run of one) from the labelled sets.

Reads comments and docstrings with ``tokenize`` (code strings and regexes are not prose and are
not read), takes every phrase quoted in "…", '…', “…” or 「…」 of at least four words (or eight
characters of Japanese), and fails if one occurs, case- and whitespace-insensitively, inside any
text field of ``bench/data/*.jsonl``. A code literal named in prose (a regex's alternative, a
normalised form the code writes) is marked ``so`` and is not an example.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
import unicodedata
from collections.abc import Iterable, Iterator
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "omoide"
DATA = ROOT / "bench" / "data"

MIN_WORDS = 4
MIN_JA_CHARS = 8

QUOTED = re.compile(
    r"\"([^\"]+)\""
    r"|“([^”]+)”"
    r"|「([^」]+)」"
    r"|(?<!\w)'((?:[^']|'(?=\w))+?)'(?!\w)"
)
ELLIPSIS = re.compile(r"\.\.\.+|…")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
EDGE = " \t.,;:!?()[]{}<>-—–。、！？・「」“”\"'`*"
SKIP = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING}
STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}


def normalise(text: str) -> str:
    """NFKC, case-folded, curly apostrophes straightened, every run of whitespace one space."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    return " ".join(text.casefold().split())


def docstring_text(token: str) -> str:
    try:
        value = ast.literal_eval(token)
    except (SyntaxError, ValueError):
        return token
    return value if isinstance(value, str) else ""


def prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each comment block and each string that stands alone as a statement
    (module, class and function docstrings, attribute docstrings)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    comment: list[str] = []
    comment_line = last_comment_row = 0
    at_start = True
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == tokenize.COMMENT:
            if comment and tok.start[0] != last_comment_row + 1:
                yield comment_line, " ".join(comment)
                comment = []
            if not comment:
                comment_line = tok.start[0]
            comment.append(tok.string.lstrip("#"))
            last_comment_row = tok.start[0]
        if tok.type == tokenize.STRING and at_start:
            j = i
            while j < len(tokens) and tokens[j].type in {tokenize.STRING, tokenize.NL}:
                j += 1
            if j == len(tokens) or tokens[j].type in {tokenize.NEWLINE, tokenize.ENDMARKER}:
                parts = (docstring_text(t.string) for t in tokens[i:j] if t.type == tokenize.STRING)
                yield tok.start[0], "".join(parts)
            at_start = False
            i = j
            continue
        if tok.type not in SKIP:
            at_start = tok.type in STATEMENT_START
        i += 1
    if comment:
        yield comment_line, " ".join(comment)


def long_enough(phrase: str) -> bool:
    if JAPANESE.search(phrase):
        return len(phrase.replace(" ", "")) >= MIN_JA_CHARS
    return len(phrase.split()) >= MIN_WORDS


def quoted_phrases(text: str) -> Iterator[str]:
    """The normalised quoted phrases of ``text`` long enough to count; an ellipsis splits one."""
    for match in QUOTED.finditer(" ".join(text.split())):
        quoted = next(group for group in match.groups() if group is not None)
        for part in ELLIPSIS.split(normalise(quoted)):
            phrase = part.strip(EDGE)
            if long_enough(phrase):
                yield phrase


def source_phrases(root: Path = SRC) -> Iterator[tuple[str, str]]:
    """(``path:line``, phrase) for every quoted phrase in the prose of ``root``'s modules."""
    for path in sorted(root.rglob("*.py")):
        for line, text in prose(path.read_text(encoding="utf-8")):
            for phrase in quoted_phrases(text):
                yield f"{path.relative_to(root.parent)}:{line}", phrase


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def labelled_texts(paths: Iterable[Path]) -> set[str]:
    """Every text field of the JSON Lines files at ``paths``, normalised."""
    texts: set[str] = set()
    for path in paths:
        for row in path.read_text(encoding="utf-8").splitlines():
            if row.strip():
                texts.update(normalise(text) for text in strings_in(json.loads(row)))
    return texts


def word_pairs(texts: Iterable[str]) -> set[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for text in texts:
        words = text.split()
        pairs.update(pairwise(words))
    return pairs


def may_hold(phrase: str, pairs: set[tuple[str, str]]) -> bool:
    """A quick sieve: a phrase inside a text has its inner words (its first and last may be
    parts of words) side by side there too."""
    inner = phrase.split()[1:-1]
    return all(pair in pairs for pair in pairwise(inner))


def hits(paths: Iterable[Path], root: Path = SRC) -> list[str]:
    texts = labelled_texts(paths)
    joined, pairs = "\n".join(texts), word_pairs(texts)
    return [
        f"{where}: {phrase!r}"
        for where, phrase in source_phrases(root)
        if may_hold(phrase, pairs) and phrase in joined
    ]


def test_quoted_phrases_are_found() -> None:
    source = (
        '"""Says "the cat sat on a mat" here."""\n'
        "x = 'a code string, not prose at all'  # a note: 'one two three four'\n"
        "# 「ユーザーは毎朝走っている」 and ‘two words’\n"
    )
    found = [phrase for _, text in prose(source) for phrase in quoted_phrases(text)]
    assert found == ["the cat sat on a mat", "one two three four", "ユーザーは毎朝走っている"]


def test_no_labelled_text_in_production_prose() -> None:
    found = hits(sorted(DATA.glob("*.jsonl")))
    assert not found, "quoted from bench/data; invent the example instead:\n" + "\n".join(found)
