"""Head-versus-rest and negation-scope features of two memories for the learned judge (pure).

Two questions the other features leave open, answered without a change-cue lexicon (the
negation words are the only cues, and they are general):

* **Did the predicate change while its arguments stayed?** "has never tried sushi" → "now eats
  sushi every week", 「ジムに通っている」→「ジムを解約した」: the same things, another verb.
  Each memory is split into its *head* (English: the first content word after the subject,
  which in a short statement is its main verb or the slot it names; Japanese, head-final: what
  follows the last case or topic particle) and the *rest*; the features are how much the heads
  share, how much the rests share, and their product "heads differ, rests agree".
* **What does a negation deny?** A negation flip is a contradiction when the denied words are
  the ones the other memory asserts ("doesn't drink coffee" / "drinks coffee every morning"),
  and often not when they are something else ("doesn't drink coffee" / "drinks tea").
  The *scope* is the few content words after the English negation, or the characters before
  the Japanese one; the feature is the share of them the other memory contains.

No I/O; deterministic; every value lies in [0, 1].
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import Sentence

__all__ = ["SCOPE_FEATURES", "head_and_rest", "negation_scope", "scope_features"]

SCOPE_FEATURES: tuple[str, ...] = (
    "head_overlap", "rest_overlap", "head_changed_rest_kept", "neg_scope_shared",
)

# Case and topic particles that close an argument (が, と, も are left out: they also occur
# inside predicates such as ことがない, ことも, として).
_JA_ARGUMENT_END = re.compile(r"[をにではへ]")
_JA_CONTENT = re.compile(r"[\u3400-\u9fff々\u30a0-\u30ffA-Za-z0-9]")
_JA_TRAILING = "。．.、!！?？ 　"
_JA_SELF = re.compile(r"ユーザー|わたし|私|僕|自分")  # the user is no argument of the predicate
_JA_COPULA_END = re.compile(r"(?:である|です|でした|だった|だ)$")
_EN_SCOPE_WORDS = 4  # content words after an English negation that it denies
_JA_SCOPE_CHARS = 6  # characters before a Japanese negation that it denies


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _ja_units(text: str) -> set[str]:
    """Character bigrams with at least one kanji, katakana, Latin letter or digit."""
    return {text[i:i + 2] for i in range(len(text) - 1)
            if _JA_CONTENT.search(text[i:i + 2])}


def _ja_body(sentence: Sentence) -> str:
    """The Japanese text without the user's words, closing punctuation and a final copula."""
    return _JA_COPULA_END.sub("", _JA_SELF.sub("", sentence.text).rstrip(_JA_TRAILING))


def head_and_rest(sentence: Sentence) -> tuple[set[str], set[str]]:
    """The head's units and the rest's units of one memory (see the module docstring).

    English units are content lemmas; Japanese units are character bigrams. A memory with
    no argument particle (Japanese) or a single content word (English) is all head."""
    if sentence.lang == "ja":
        text = _ja_body(sentence)
        ends = [m.end() for m in _JA_ARGUMENT_END.finditer(text) if m.end() < len(text)]
        cut = ends[-1] if ends else 0
        return _ja_units(text[cut:]), _ja_units(text[:cut])
    content = sentence.content
    return set(content[:1]), set(content[1:])


def negation_scope(sentence: Sentence) -> set[str]:
    """The units a negation in the memory denies (empty when nothing is negated)."""
    pattern = lex.NEGATION[sentence.lang]
    if sentence.lang == "ja":
        scope: set[str] = set()
        for m in re.finditer(pattern, sentence.text):
            if any(idiom in sentence.text[max(0, m.start() - 4):m.end() + 2]
                   for idiom in lex.JA_IDIOMS_NOT_NEGATION):
                continue
            scope |= _ja_units(sentence.text[max(0, m.start() - _JA_SCOPE_CHARS):m.start()])
        return scope
    content = set(sentence.content)
    scope = set()
    for m in re.finditer(pattern, sentence.text):
        lemmas = [en_lemma(w) for w in re.findall(r"[a-z]+", sentence.text[m.end():])]
        scope |= set([lem for lem in lemmas if lem in content][:_EN_SCOPE_WORDS])
    return scope


def _shared_share(units: set[str], other: Sentence) -> float:
    if not units:
        return 0.0
    if other.lang == "ja":
        found = sum(u in other.text for u in units)
    else:
        found = sum(u in other.words for u in units)
    return found / len(units)


def scope_features(old: Sentence, new: Sentence) -> list[float]:
    """The SCOPE_FEATURES row for one pair."""
    old_head, old_rest = head_and_rest(old)
    new_head, new_rest = head_and_rest(new)
    head = _jaccard(old_head, new_head)
    rest = _jaccard(old_rest, new_rest)
    shared = 0.0
    if old.negative != new.negative:
        negated, other = (old, new) if old.negative else (new, old)
        shared = _shared_share(negation_scope(negated), other)
    changed = (1.0 - head) * rest if old_head or new_head else 0.0  # no head: nothing changed
    return [head, rest, changed, shared]
