"""Text analysis for keyword search: normalising, script detection and query terms (pure).

Japanese has no spaces and FTS5's ``unicode61`` tokenizer treats a whole run of kana and kanji
as one token, so Omoide splits text by script itself: Latin words go to ``unicode61``, CJK runs
are cut into short content terms (kanji runs, katakana runs, long hiragana runs) for the
``trigram`` index and the short-term path. Only the standard library; no I/O, no SQL.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "EN_STOPWORDS",
    "JA_STOPWORDS",
    "QueryTerms",
    "Run",
    "Script",
    "char_ngrams",
    "cjk_terms",
    "english_words",
    "has_cjk",
    "is_japanese",
    "normalise",
    "query_terms",
    "script_runs",
    "spaced_for_words",
]


class Script(StrEnum):
    LATIN = "latin"  # letters and digits outside the CJK blocks, including accented Latin
    HAN = "han"  # kanji, plus 々 (the repetition mark belongs to the kanji before it)
    HIRAGANA = "hiragana"
    KATAKANA = "katakana"  # including ー, the long-vowel mark
    HANGUL = "hangul"
    OTHER = "other"  # spaces, punctuation, symbols: separators


@dataclass(frozen=True)
class Run:
    text: str
    script: Script


@dataclass(frozen=True)
class QueryTerms:
    """What a search string asks for, split by the index that can answer it."""

    words: tuple[str, ...]  # lowercase Latin words, stopwords removed (unicode61)
    cjk: tuple[str, ...]  # CJK content terms, any length (trigram for >= 3 chars, else short path)

    @property
    def empty(self) -> bool:
        return not self.words and not self.cjk


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Our own list: function words that carry no topic in a memory ("Rau", "user" stay searchable).
EN_STOPWORDS = _wordset(
    """
    a about above after again against all am an and any are aren as at be because been before
    being below between both but by can could couldn did didn do does doesn doing don down during
    each few for from further had hadn has hasn have haven having he her here hers herself him
    himself his how i if in into is isn it its itself just ll me might more most must my myself
    no nor not now of off on once only or other our ours ourselves out over own re s same she
    should so some such t than that the their theirs them themselves then there these they this
    those through to too under until up ve very was wasn we were weren what when where which while
    who whom why will with won would you your yours yourself yourselves d m o y ain also
    """
)

# Hiragana runs that are grammar, not topic: particles, copulas, auxiliaries, question words.
JA_STOPWORDS = _wordset(
    """
    これ それ あれ どれ ここ そこ あそこ どこ こと もの ため よう とき ところ
    です でした ます ました ません である だった でしょう ている ていた ていて てる
    している していた します しました する した して される された なる なった なって
    ある あった いる いた いつ なに なん どう どの どんな だれ いくら いくつ ですか
    ますか のは には では とは から まで より など について として という ような
    """
)

# A hiragana run cannot start a word with a small kana (っている, ゃ…).
_SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎ")
# Single hiragana that are usually particles; what is left of a run without them and without
# stopwords tells whether the run holds a word at all.
_PARTICLES = frozenset("はがをにでともへやかねよのな")
_STOP_LONGEST_FIRST = sorted(JA_STOPWORDS, key=len, reverse=True)

_WORD = re.compile(r"[^\W_]+")


def normalise(text: str) -> str:
    """NFKC (full-width ASCII → half-width, half-width kana → full-width), minus characters that
    cannot be stored: NUL and lone surrogates."""
    text = "".join(ch for ch in text if ch != "\x00" and not 0xD800 <= ord(ch) <= 0xDFFF)
    return unicodedata.normalize("NFKC", text)


def _script(ch: str) -> Script:
    cp = ord(ch)
    if 0x3040 <= cp <= 0x309F:
        return Script.HIRAGANA
    if cp in (0x30A0, 0x30FB):  # ゠ and ・ separate words (ハル・らうらう)
        return Script.OTHER
    if 0x30A0 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or cp == 0xFF70:
        return Script.KATAKANA
    if 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2FFFF:
        return Script.HAN
    if 0xF900 <= cp <= 0xFAFF or cp in (0x3005, 0x3006, 0x3007):
        return Script.HAN
    if 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F:
        return Script.HANGUL
    if ch.isalnum():
        return Script.LATIN
    return Script.OTHER


_CJK = frozenset({Script.HAN, Script.HIRAGANA, Script.KATAKANA, Script.HANGUL})


def script_runs(text: str) -> list[Run]:
    """Maximal runs of one script, separators dropped."""
    runs: list[Run] = []
    start, current = 0, None
    for i, ch in enumerate(text):
        script = _script(ch)
        if script != current:
            if current is not None and current != Script.OTHER:
                runs.append(Run(text[start:i], current))
            start, current = i, script
    if current is not None and current != Script.OTHER:
        runs.append(Run(text[start:], current))
    return runs


def has_cjk(text: str) -> bool:
    return any(_script(ch) in _CJK for ch in text)


def is_japanese(text: str) -> bool:
    """Kana anywhere, or kanji without Hangul (a kanji-only string is read as Japanese here)."""
    scripts = {_script(ch) for ch in text}
    if Script.HIRAGANA in scripts or Script.KATAKANA in scripts:
        return True
    return Script.HAN in scripts and Script.HANGUL not in scripts


def english_words(text: str) -> list[str]:
    """Lowercase Latin words in order, stopwords removed (duplicates kept)."""
    words: list[str] = []
    for run in script_runs(normalise(text)):
        if run.script == Script.LATIN:
            words.extend(w for w in _WORD.findall(run.text.lower()) if w not in EN_STOPWORDS)
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
        elif run.script in _CJK:
            term = run.text
        else:
            term = ""
        previous = run.script
        if term and term not in terms:
            terms.append(term)
    return terms


def query_terms(text: str) -> QueryTerms:
    words = tuple(dict.fromkeys(english_words(text)))
    return QueryTerms(words=words, cjk=tuple(cjk_terms(text)))


def char_ngrams(text: str, n: int) -> list[str]:
    """Overlapping character n-grams; a text shorter than ``n`` yields itself (if not empty)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    if len(text) <= n:
        return [text] if text else []
    return [text[i : i + n] for i in range(len(text) - n + 1)]


def spaced_for_words(text: str) -> str:
    """The text with a space at every script change, so ``unicode61`` sees the Latin words that
    Japanese writes without spaces ("AIの勉強" → "AI の勉強")."""
    return " ".join(run.text for run in script_runs(normalise(text)))
