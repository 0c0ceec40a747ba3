"""Dedup's judge reads how much of a pair's *content* changed, its grammar aside (pure).

A part of ``dedup_judge.dedup_features`` (since the twenty-fourth round). Trigger: a near-copy
written as a note ("Rent: £870/month, Exeter flat") against a sentence ("The user rents a flat
in Exeter for £870 a month"), in the other voice, with a particle or an ending more or less.
Why: the judge's ``changed_share`` counts every word (English) or character (Japanese) the
two texts do not share, and a note form, a voice change or a politer ending changes many of
them while the facts stay; a related pair changes a content word and little grammar (on the
twenty-four sources above the floor, the share alone ranks a paraphrase below a related pair
with AUC 0.89 in English and 0.90 in Japanese).
Outcome: the share of the changed tokens that are *content*: English words other than function
words (articles, auxiliaries, pronouns, common prepositions and conjunctions; a negation, a
quantifier or a bound such as "before", "under", "only" is content), Japanese characters other
than the grammar written in hiragana (particles, endings and auxiliaries; a hiragana run that is
not made of them is a word in kana, a name or an adverb: こむぎ / おもち, よく / たまに).
Deterministic.
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
_JA_PUNCTUATION = re.compile(r"[\s。、，,.!！?？「」『』()（）・:：;；〜~-]")
_HIRAGANA_RUN = re.compile(r"[\u3041-\u309f]+")
# The grammar a Japanese change is written in: particles and the pieces of endings. A changed
# run of hiragana made only of these is grammar (ています / ている, ので / から); any other is a
# word written in kana (こむぎ / おもち, よく / たまに) and counts as content.
_JA_GRAMMAR = word_set("""
    は が を に で と も へ の や か ね よ な た て い る だ ん
    ます ました ません ましょう です でした である だった ない なかった ず ぬ
    ている ていた てる てた ておく とく ちゃう られる られ れる れ させ せる
    する した して しない します しました しません しており おり おります ござい
    いる いた ある あった なる なった から まで より けど けれど ので のに には では とは
    こと もの よう そう らしい みたい という って
""")


def _grammar(run: str) -> bool:
    """Whether a hiragana run splits whole into :data:`_JA_GRAMMAR` pieces."""
    ok = [True] + [False] * len(run)
    for end in range(1, len(run) + 1):
        ok[end] = any(
            ok[start] and run[start:end] in _JA_GRAMMAR for start in range(max(0, end - 5), end)
        )
    return ok[len(run)]


def _ja_tokens(part: str) -> tuple[int, int]:
    """(content characters, all characters) of a Japanese changed part."""
    total = content = 0
    for block in part.split():
        block = _JA_PUNCTUATION.sub("", block)
        total += len(block)
        grammar = sum(len(m.group()) for m in _HIRAGANA_RUN.finditer(block) if _grammar(m.group()))
        content += len(block) - grammar
    return content, total


def changed_content(removed: str, added: str, japanese: bool) -> float:
    """The share of a pair's changed tokens that are content: ``removed`` and ``added`` are
    what each text says that the other does not (``dedup_judge.changed_parts``: English words
    joined by spaces, Japanese characters); 0 when nothing changed."""
    if japanese:
        (c1, t1), (c2, t2) = _ja_tokens(removed), _ja_tokens(added)
        return (c1 + c2) / (t1 + t2) if t1 + t2 else 0.0
    else:
        changed = removed.split() + added.split()
        content = [w for w in changed if w not in _FUNCTION]
    return len(content) / len(changed) if changed else 0.0
