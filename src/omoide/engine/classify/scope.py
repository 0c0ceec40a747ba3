"""Head-versus-rest and negation-scope features of two memories for the learned judge (pure).

Two questions the other features leave open, answered without a change-cue lexicon (the
negation words are the only cues, and they are general):

* **Did the predicate change while its arguments stayed?** "has never tried oysters" → "now eats
  oysters every week", 「茶道教室に通っている」→「茶道教室をやめた」: the same things, another verb.
  Each memory is split into its *head* (English: the first content word after the subject,
  which in a short statement is its main verb or the slot it names; Japanese, head-final: what
  follows the last case or topic particle) and the *rest*; the features are how much the heads
  share, how much the rests share, and their product "heads differ, rests agree".
* **What does a negation deny?** A negation flip is a contradiction when the denied words are
  the ones the other memory asserts ("doesn't drink coffee" / "drinks coffee every morning"),
  and often not when they are something else ("doesn't drink coffee" / "drinks tea").
  The *scope* is the few content words after the English negation (up to the end of its
  clause: "did not drive, but took the bus" denies the drive only), or the characters before
  the Japanese one; the feature is the share of them the other memory contains. A second
  feature asks the reverse about what the negation denies beyond its verb (its object and
  qualifiers): the share the other memory does not say ("has never judged a county show" /
  "has judged several village shows": judging, but not what was denied).

No I/O; deterministic; every value lies in [0, 1].
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import Sentence

__all__ = ["SCOPE_FEATURES", "head_and_rest", "negated_objects", "negation_scope", "scope_features"]

SCOPE_FEATURES: tuple[str, ...] = (
    "head_overlap",
    "rest_overlap",
    "head_changed_rest_kept",
    "neg_scope_shared",
    "neg_object_missing",
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
# A negation denies nothing past its clause: "did not drive, but took the bus".
_EN_SCOPE_END = re.compile(r"[,;:.]|\s(?:but|and|because|so|though|although|while|instead)\s")
_JA_OBJECT_CHARS = 12  # characters before a Japanese negation where its object stands
_JA_RUN = re.compile(r"[\u3400-\u9fff々\u30a0-\u30ffA-Za-z0-9]{2,}")


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _ja_units(text: str) -> set[str]:
    """Character bigrams with at least one kanji, katakana, Latin letter or digit."""
    return {text[i : i + 2] for i in range(len(text) - 1) if _JA_CONTENT.search(text[i : i + 2])}


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
            if any(
                idiom in sentence.text[max(0, m.start() - 4) : m.end() + 2]
                for idiom in lex.JA_IDIOMS_NOT_NEGATION
            ):
                continue
            scope |= _ja_units(sentence.text[max(0, m.start() - _JA_SCOPE_CHARS) : m.start()])
        return scope
    scope = set()
    for words in _en_scopes(sentence):
        scope |= set(words)
    return scope


def _en_scopes(sentence: Sentence) -> list[list[str]]:
    """Per English negation, the content lemmas it denies, in order (its clause only)."""
    content = set(sentence.content)
    scopes = []
    for m in re.finditer(lex.NEGATION["en"], sentence.text):
        clause = _EN_SCOPE_END.split(sentence.text[m.end() :], maxsplit=1)[0]
        lemmas = [en_lemma(w) for w in re.findall(r"[a-z]+", clause)]
        scopes.append([lem for lem in lemmas if lem in content][:_EN_SCOPE_WORDS])
    return scopes


def negated_objects(sentence: Sentence) -> list[tuple[str, set[str]]]:
    """Per negation, its verb and what it denies beyond it (the things and qualifiers: "has
    never judged *a county show*", 「*クレジットカード*を持てない」). English: the scope's
    first content lemma and the rest; Japanese: the kanji stem right before the negation and
    the kanji / katakana / Latin runs of two or more characters in its clause before that."""
    found = []
    if sentence.lang == "ja":
        for m in re.finditer(lex.NEGATION["ja"], sentence.text):
            window = re.split(
                r"[、。]", sentence.text[max(0, m.start() - _JA_OBJECT_CHARS) : m.start()]
            )[-1]
            verb = re.search(r"([\u3400-\u9fff々]+)[ぁ-ん]*$", window)
            if verb is None:
                continue
            runs = _JA_RUN.findall(window[: verb.start()])
            found.append((verb.group(1), {r for r in runs if not _JA_SELF.fullmatch(r)}))
        return found
    return [(words[0], set(words[1:])) for words in _en_scopes(sentence) if words]


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
    return [head, rest, changed, shared, _object_missing(old, new)]


def _object_missing(old: Sentence, new: Sentence) -> float:
    """When one memory is negated and the other is not, and the other says the negated verb:
    the share of what the negation denies beyond its verb that the other memory does not say
    ("has never judged a county show" / "has judged village shows": the same act,
    but not what was denied)."""
    if old.negative == new.negative:
        return 0.0
    negated, other = (old, new) if old.negative else (new, old)
    says = (
        (lambda unit: unit in other.text)
        if other.lang == "ja"
        else (lambda unit: unit in other.words)
    )
    shares = [
        sum(not says(o) for o in objects) / len(objects)
        for verb, objects in negated_objects(negated)
        if objects and says(verb)
    ]
    return max(shares, default=0.0)
