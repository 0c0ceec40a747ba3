"""Words of a text: Latin words, CJK content terms, query terms, n-grams (pure).

Japanese has no spaces and FTS5's ``unicode61`` tokenizer treats a whole run of kana and kanji
as one token, so Omoide splits text by script itself: Latin words go to ``unicode61``, CJK runs
are cut into short content terms (kanji runs, katakana runs, long hiragana runs) for the
``trigram`` index and the short-term path. Only the standard library; no I/O, no SQL.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from omoide.engine.errors import ParameterError
from omoide.engine.lang.script import Script, fold_latin, is_cjk, normalise, script_runs
from omoide.engine.lang.stopwords import NOTE_STOPWORDS, SEARCH_STOPWORDS, SEARCH_STOPWORDS_JA

__all__ = [
    "QueryTerms",
    "char_ngrams",
    "cjk_terms",
    "english_words",
    "note_content_words",
    "query_terms",
    "spaced_for_words",
    "without_words",
    "word_tokens",
]


@dataclass(frozen=True)
class QueryTerms:
    """What a search string asks for, split by the index that can answer it."""

    # lowercase Latin words, stopwords removed, diacritics of Latin letters folded (unicode61)
    words: tuple[str, ...]
    cjk: tuple[str, ...]  # CJK content terms, any length (trigram for >= 3 chars, else short path)

    @property
    def empty(self) -> bool:
        return not self.words and not self.cjk


# A hiragana run cannot start a word with a small kana (っている, ゃ…).
_SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎ")
# Single hiragana that are usually particles; what is left of a run without them and without
# stopwords tells whether the run holds a word at all.
_PARTICLES = frozenset("はがをにでともへやかねよのな")
_STOP_LONGEST_FIRST = sorted(SEARCH_STOPWORDS_JA, key=len, reverse=True)

_WORD = re.compile(r"[^\W_]+")
# A written word: Latin letters (with ' and -), a number, or a whole run of Japanese script.
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’\-]*|\d+(?:[.,:/]\d+)*|[\u3040-\u30ff\u3400-\u9fff]+")


def english_words(text: str) -> list[str]:
    """Lowercase Latin words in order, search stopwords removed (duplicates kept)."""
    words: list[str] = []
    for run in script_runs(normalise(text)):
        if run.script == Script.LATIN:
            words.extend(w for w in _WORD.findall(run.text.lower()) if w not in SEARCH_STOPWORDS)
    return words


def _hiragana_term(run: str, *, after_han: bool) -> str:
    # Hiragana straight after kanji is okurigana or grammar (飼って, 好きな, 運転ができる);
    # elsewhere a long run can be a name or a word (らうらう, ふるさと), kept with its particles:
    # the trigram side matches it by its trigrams, so a trailing は costs one trigram, no more.
    if after_han or len(run) < 3 or run[0] in _SMALL_KANA:
        return ""
    rest = run
    for stop in _STOP_LONGEST_FIRST:
        rest = rest.replace(stop, "")
    return run if len([ch for ch in rest if ch not in _PARTICLES]) >= 2 else ""


def cjk_terms(text: str) -> list[str]:
    """Content terms of the CJK runs: kanji, katakana and hangul runs whole; hiragana runs only
    when they may be words (three or more characters, not after kanji, not grammar).
    Order kept, duplicates removed."""
    terms: list[str] = []
    previous: Script | None = None
    for run in script_runs(normalise(text)):
        if run.script == Script.HIRAGANA:
            term = _hiragana_term(run.text, after_han=previous == Script.HAN)
        elif is_cjk(run.script):
            term = run.text
        else:
            term = ""
        previous = run.script
        if term and term not in terms:
            terms.append(term)
    return terms


def query_terms(text: str) -> QueryTerms:
    words = tuple(dict.fromkeys(fold_latin(word) for word in english_words(text)))
    return QueryTerms(words=words, cjk=tuple(cjk_terms(text)))


# A word of Latin letters, with a possessive 's that goes with it.
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]+(?:['’]s(?![^\W\d_]))?")


def without_words(text: str, words: Collection[str]) -> str:
    """``text`` (NFKC) without its Latin-script words that are in ``words`` (lower-cased,
    Latin diacritics folded, as :func:`query_terms` gives them), each with its possessive 's;
    spaces collapsed. Words of other scripts stay. ``text`` itself when none is there.

    >>> without_words("What does Aiko's brother cook?", {"aiko"})
    'What does brother cook?'
    """
    if not words:
        return text
    dropped = False

    def keep(match: re.Match[str]) -> str:
        nonlocal dropped
        word = match.group(0)
        base = word[:-2] if word[-2:] in ("'s", "’s") else word
        if fold_latin(base.lower()) in words:
            dropped = True
            return ""
        return word

    kept = _LATIN_WORD.sub(keep, normalise(text))
    if not dropped:
        return text
    return re.sub(r" +([?.!,;:])", r"\1", re.sub(r"\s+", " ", kept)).strip()


def word_tokens(text: str) -> list[str]:
    """Word tokens as written (case kept, ’ as '); a run of Japanese script is one token."""
    return [w.replace("’", "'") for w in _TOKEN.findall(text)]


def note_content_words(text: str) -> list[str]:
    """Lower-cased :func:`word_tokens` that are not :data:`NOTE_STOPWORDS` and longer than one
    letter (numbers stay): what a consolidated note's sentence is about."""
    out = []
    for word in word_tokens(text):
        low = word.lower()
        if low not in NOTE_STOPWORDS and (len(low) > 1 or low.isdigit()):
            out.append(low)
    return out


def char_ngrams(text: str, n: int) -> list[str]:
    """Overlapping character n-grams; a text shorter than ``n`` yields itself (if not empty)."""
    if n < 1:
        raise ParameterError("n must be at least 1", field="n")
    if len(text) <= n:
        return [text] if text else []
    return [text[i : i + n] for i in range(len(text) - n + 1)]


def spaced_for_words(text: str) -> str:
    """The text with a space at every script change, so ``unicode61`` sees the Latin words that
    Japanese writes without spaces ("AIの勉強" → "AI の勉強")."""
    return " ".join(run.text for run in script_runs(normalise(text)))
