"""Offline 3-op classifier: shared measures and the INDEPENDENT / EXTENDABLE signals (pure).

Every signal takes the old and the new memory (``Sentence``) and returns a ``Finding`` when
its linguistic cue fires, else ``None``. The measures here (how much of the old memory the
new one repeats, which topic words they share, whether they name two things of one kind) are
also what the CONTRADICTORY signals in ``change`` rely on. The decision order lives
in ``offline``. No I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.base import Relation
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import USER, Sentence, cue

__all__ = [
    "EN_GENERIC",
    "Finding",
    "about_old_thing",
    "adds_detail",
    "already_ended",
    "anchors",
    "coverage",
    "detail_about_mentioned",
    "different_kind",
    "different_occasion",
    "different_subject",
    "found_in",
    "lost_units",
    "narrower",
    "restates",
    "second_item",
    "sibling_swap",
    "topic_coverage",
]

EN_GENERIC = frozenset(en_lemma(w) for w in lex.EN_GENERIC_VERBS) | frozenset(
    en_lemma(w) for w in ["favorite", "fan", "live", "thing"]
)
_EN_POSSESSIVE = re.compile(r"\b(?:her|his|their|user's)\s+(?:own\s+)?([a-z]+)")
_POSSESSED = {
    "en": r"\b(?:user's|my|her|his)\s+((?:[a-z]+\s+){0,2}?[a-z]+)"
    r"(?:,|\s+(?:is|are|was|were|has|have)\b)",
    "ja": r"(?:ユーザー|わたし|私|僕)の([^\s、。はがもの]{1,12}?)(?:は|が|も)",
}


@dataclass(frozen=True)
class Finding:
    relation: Relation
    confidence: float
    reason: str


# --- shared measures ----------------------------------------------------------------------


def found_in(unit: str, sentence: Sentence) -> bool:
    """Japanese: the unit occurs in the text. English: the lemma occurs, alone or as the
    head of a closed compound ("nut" in "peanut", "plant" in "houseplant")."""
    if sentence.lang == "ja":
        return unit in sentence.text or unit in sentence.text.lower()
    if unit in sentence.words:
        return True
    if unit.endswith("er") and unit[:-2] in sentence.words:
        return True  # an agent noun and its verb: teacher / teaches
    return len(unit) >= 3 and any(w.endswith(unit) and w.isalpha() for w in sentence.words)


def coverage(old: Sentence, new: Sentence) -> float:
    """Share of the old memory's topic units that the new memory repeats (0 when none)."""
    if not old.content:
        return 0.0
    return sum(found_in(u, new) for u in old.content) / len(old.content)


def topic_coverage(old: Sentence, new: Sentence) -> float:
    """``coverage`` over the old memory's topic words only, leaving out everyday verbs and
    preference words: "likes golf" and "likes fishing" share "likes" but no topic."""
    generic = EN_GENERIC if old.lang == "en" else lex.JA_GENERIC_STEMS
    topic = [u for u in old.content if u not in generic]
    if not topic:
        return coverage(old, new)
    return sum(found_in(u, new) for u in topic) / len(topic)


def anchors(old: Sentence, new: Sentence) -> list[str]:
    """Topic units both memories share, minus everyday verbs and preference words."""
    generic = EN_GENERIC if old.lang == "en" else lex.JA_GENERIC_STEMS
    return [u for u in old.content if u not in generic and found_in(u, new)]


def lost_units(old: Sentence, new: Sentence) -> list[str]:
    """Topic units of the old memory that the new one drops (a replaced value, or noise)."""
    generic = EN_GENERIC if old.lang == "en" else lex.JA_GENERIC_STEMS
    return [u for u in old.content if u not in generic and not found_in(u, new)]


def sibling_swap(old: Sentence, new: Sentence) -> tuple[str, str] | None:
    """Two different things of one kind: "green tea" / "chamomile tea", 営業部 / 人事部.

    The same head word with a different modifier on each side, neither modifier repeated
    by the other memory.
    """
    if old.lang != new.lang:
        return None
    if old.lang == "en":
        for pair in old.compounds:
            mod, head = pair.split(" ")
            for other in new.compounds:
                mod2, head2 = other.split(" ")
                fresh = mod not in new.words and mod2 not in old.words
                if head2 == head and mod2 != mod and fresh:
                    return pair, other
        return None
    for run in old.compounds:
        for other in new.compounds:
            same_kind = run[-1] == other[-1] and re.match(r"[\u3400-\u9fff]", run[-1])
            if same_kind and run not in new.text and other not in old.text:
                return run, other
    return None


def _other_owner_mentioned(old: Sentence, new: Sentence) -> bool:
    """The new memory's person already appears in the old one ("has an older cousin")."""
    return new.owner not in (USER, old.owner) and new.owner in old.text


def _acts_on_users_thing(old: Sentence, new: Sentence) -> bool:
    """ "User's council raised her parking fee": a third party acting on the old memory's topic."""
    if new.lang != "en" or old.owner != USER:
        return False
    return any(en_lemma(m) in old.content for m in _EN_POSSESSIVE.findall(new.text))


# --- INDEPENDENT --------------------------------------------------------------------------


def different_subject(old: Sentence, new: Sentence) -> Finding | None:
    """Facts about different people: brother vs cousin, the persona vs the user."""
    if old.owner == new.owner or _other_owner_mentioned(old, new):
        return None
    relative = new.owner.startswith((f"{old.owner}の", f"{old.owner}'s "))  # 夫 vs 夫の母
    if old.owner != USER and old.owner in new.text and not relative:
        return None
    if _acts_on_users_thing(old, new):
        return None
    return Finding(Relation.INDEPENDENT, 0.85, f"different subject: {old.owner} vs {new.owner}")


def second_item(old: Sentence, new: Sentence) -> Finding | None:
    """ "also", "too", 「も」 next to a different item: a second preference, not a change."""
    if not cue(lex.ADDITIVE, new) or not lost_units(old, new):
        return None
    return Finding(Relation.INDEPENDENT, 0.75, "an additional item ('also' / 「も」)")


def different_occasion(old: Sentence, new: Sentence) -> Finding | None:
    """Two occasions, not one told twice: a finished past event next to a present fact
    (learned to swim at five / swims laps now), or both dated and the dates or times of day
    differ (autumn leaves in Kyoto last year, cherry blossoms there this spring)."""
    if old.past_occasion and not new.past_occasion:
        return Finding(Relation.INDEPENDENT, 0.65, "a past occasion next to a present fact")
    before = set(re.findall(lex.OCCASION[old.lang], old.text))
    after = set(re.findall(lex.OCCASION[new.lang], new.text))
    if not before or not after or before & after:
        return None
    return Finding(Relation.INDEPENDENT, 0.65, "a different occasion (different dates)")


def different_kind(old: Sentence, new: Sentence) -> Finding | None:
    """Sibling things with no change cue: green tea and chamomile tea are both true."""
    swap = sibling_swap(old, new)
    if swap is None:
        return None
    return Finding(Relation.INDEPENDENT, 0.7, f"another of the same kind: {swap[0]} / {swap[1]}")


# --- EXTENDABLE ---------------------------------------------------------------------------


def already_ended(old: Sentence, new: Sentence) -> Finding | None:
    """Both describe the same finished state ("former teacher" + "retired")."""
    if not (cue(lex.ENDED, old) and cue(lex.STOPPED, new)):
        return None
    if not (anchors(old, new) or (old.owner != USER and old.owner == new.owner)):
        return None
    return Finding(Relation.EXTENDABLE, 0.6, "consistent: the old memory already says it ended")


def detail_about_mentioned(old: Sentence, new: Sentence) -> Finding | None:
    """The old memory mentions a person; the new one is about that person."""
    if not _other_owner_mentioned(old, new):
        return None
    return Finding(Relation.EXTENDABLE, 0.7, f"adds detail about {new.owner}")


def about_old_thing(old: Sentence, new: Sentence) -> Finding | None:
    """The new memory is about something the old one mentions: "owns a canal boat" →
    "User's canal boat is a Springer", 「猫を飼っている」→「ユーザーの猫は茶トラ」."""
    match = re.search(_POSSESSED[new.lang], new.text)
    if match is None:
        return None
    thing = match.group(1)
    if thing in (old.owner, new.owner):
        return None
    words = [en_lemma(w) for w in thing.split()] if new.lang == "en" else [thing]
    if not any(w in old.content or (new.lang == "ja" and w in old.text) for w in words):
        return None
    return Finding(Relation.EXTENDABLE, 0.7, f"adds detail about the {thing}")


def narrower(old: Sentence, new: Sentence) -> Finding | None:
    """ "especially", "mostly", 特に: a narrower case of the old statement.

    "likes films" → "lately mostly into silent comedies" looks like a change but is not.
    """
    shared = anchors(old, new)
    if cue(lex.NARROWING, new) and not cue(lex.NARROWING, old):
        both_like = not old.negative and not new.negative and _likes(old) and _likes(new)
        if shared or both_like:
            return Finding(Relation.EXTENDABLE, 0.65, "a narrower case ('especially' / 特に)")
    if cue(lex.FAVORITE, new) and not cue(lex.FAVORITE, old) and shared:
        return Finding(Relation.EXTENDABLE, 0.6, f"a favourite among: {', '.join(shared[:2])}")
    return None


def _likes(sentence: Sentence) -> bool:
    return re.search(lex.PREF_POS[sentence.lang], sentence.text) is not None


def adds_detail(old: Sentence, new: Sentence, *, min_coverage: float) -> Finding | None:
    """The new memory repeats most of the old one and says more."""
    share = topic_coverage(old, new)
    extra = [u for u in new.content if not found_in(u, old)]
    more_numbers = {q.unit for q in new.quantities} - {q.unit for q in old.quantities}
    if share < min_coverage or not (extra or more_numbers):
        return None
    confidence = round(0.5 + 0.4 * share, 2)
    return Finding(Relation.EXTENDABLE, confidence, f"adds detail ({share:.0%} of old repeated)")


def restates(old: Sentence, new: Sentence, *, min_coverage: float) -> Finding | None:
    """The new memory repeats the old one and adds nothing: leave both as they are."""
    if topic_coverage(old, new) < min_coverage:
        return None
    return Finding(Relation.INDEPENDENT, 0.6, "restates the old memory; nothing new")
