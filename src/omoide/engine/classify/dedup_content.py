"""Dedup's judge reads how much of a pair's *content* changed, its grammar aside (pure).

A part of ``dedup_judge.dedup_features`` (since the twenty-fourth round). Trigger: a near-copy
written as a note ("Rent: £950/month, Cardiff flat") against a sentence ("The user rents a flat
in Cardiff for £950 a month"), in the other voice, with a particle or an ending more or less.
Why: the judge's ``changed_share`` counts every word (English) or character (Japanese) the
two texts do not share, and a note form, a voice change or a politer ending changes many of
them while the facts stay; a related pair changes a content word and little grammar (on the
twenty-four sources above the floor, the share alone ranks a paraphrase below a related pair
with AUC 0.89 in English and 0.90 in Japanese).
Outcome: the share of the changed tokens that are *content*: English words other than function
words (articles, auxiliaries, pronouns, common prepositions and conjunctions; a negation, a
quantifier or a bound such as "before", "under", "only" is content), Japanese characters other
than hiragana (kanji, katakana, Latin letters and digits: particles, endings and auxiliaries are
written in hiragana). Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.lang import SEARCH_STOPWORDS, word_set

__all__ = ["changed_content"]

# Function words that still carry a fact: kept as content.
_CONTENT_STOPWORDS = word_set(
    """
    no nor not all any few more most only some once before after under over until above below
    against out off up down same other very too again further each both between during never
    without
    """
)
_FUNCTION = (SEARCH_STOPWORDS - _CONTENT_STOPWORDS) | word_set("per whose via")
_JA_FUNCTION = re.compile(r"[\u3041-\u309f\s。、，,.!！?？「」『』()（）・:：;；〜~-]+")


def changed_content(removed: str, added: str, japanese: bool) -> float:
    """The share of a pair's changed tokens that are content: ``removed`` and ``added`` are
    what each text says that the other does not (``dedup_judge.changed_parts``: English words
    joined by spaces, Japanese characters); 0 when nothing changed."""
    if japanese:
        changed = [c for c in removed + added if not c.isspace()]
        content = [c for c in changed if not _JA_FUNCTION.fullmatch(c)]
    else:
        changed = removed.split() + added.split()
        content = [w for w in changed if w not in _FUNCTION]
    return len(content) / len(changed) if changed else 0.0
