"""Entity feedback: the rare names the first results share, as a second keyword query (pure).

Multi-hop questions ask about a thing the question does not name ("Where did she move from?"
is answered by a note naming the country). After a first ranking, the first few results often
name it; a second keyword pass with those names can pull the other results that mention it.
Unlike word pseudo-relevance feedback (which adds the head's common words and drifts toward
more of the same topic), only *entity-like* terms are taken: words written with a capital
letter inside a sentence (names, places, titles) — or, with ``capitalised=False``, any word —
that are rare among the candidates (at most ``max_share`` of them hold it, so the persona's
own and its speakers' names, which most notes hold, never qualify) and that the query does
not already contain. No I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

__all__ = ["entity_terms", "words"]

_WORD = re.compile(r"[^\W\d_][\w'’-]*[^\W_]|[^\W\d_]")
_SENTENCE_END = re.compile(r"[.!?。！？:;\"“”(\[]\s*$")
_MIN_CHARS = 3
_STEM_CHARS = 5  # two words sharing their first five letters count as one (plurals, tenses)


def words(text: str) -> set[str]:
    """The lower-cased words of ``text`` (letters, inner apostrophes and hyphens)."""
    return {m.group(0).lower() for m in _WORD.finditer(text)}


def _capitalised(text: str) -> set[str]:
    """Words of ``text`` written with a capital initial that do not open a sentence."""
    out: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group(0)
        if not word[0].isupper() or len(word) < _MIN_CHARS:
            continue
        before = text[:m.start()]
        if not before.strip() or _SENTENCE_END.search(before):
            continue
        out.add(word.lower())
    return out


def entity_terms(query: str, head: Sequence[str], pool: Sequence[str], *, limit: int,
                 max_share: float, capitalised: bool = True) -> list[str]:
    """Up to ``limit`` terms of the ``head`` texts (the first results) to search for again:
    entity-like, rare in ``pool`` (the candidates' texts, head included) but held by some candidate
    outside the head, not in ``query``.
    Terms held by more head texts come first, then rarer ones, then alphabetical."""
    if limit <= 0 or not head:
        return []
    asked = {w[:_STEM_CHARS] for w in words(query)}
    df = Counter(w for text in pool for w in words(text))
    ceiling = max(1.0, max_share * len(pool))
    in_head: Counter[str] = Counter()
    for text in head:
        found = _capitalised(text) if capitalised else words(text)
        in_head.update(w for w in found if len(w) >= _MIN_CHARS)
    # a term only the head holds finds nothing new
    chosen = [w for w in in_head if w[:_STEM_CHARS] not in asked
              and in_head[w] < df[w] <= ceiling]
    chosen.sort(key=lambda w: (-in_head[w], df[w], w))
    return chosen[:limit]
