"""Offline 3-op classifier: the CONTRADICTORY signals, one linguistic cue each (pure).

Quitting and cancelling, resuming, a reversed stance, a move, a changed number, a new value
for a single-valued status or favourite, a goal completed, a switched job or device, and a
change cue with a replaced value. Each needs both its cue and evidence that the two memories
talk about the same thing (shared topic words, the same measured unit): a false
CONTRADICTORY closes a memory that is still true, so when a signal is unsure it stays silent.
No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.base import Relation
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.classify.signals import (
    Finding,
    anchors,
    coverage,
    found_in,
    lost_units,
    sibling_swap,
)
from omoide.engine.classify.subject import cue_about_old
from omoide.engine.classify.text import Sentence, cue
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = [
    "completed",
    "favorite_changed",
    "moved",
    "quantity_changed",
    "replaced",
    "resumed",
    "stance_flip",
    "status_changed",
    "stopped",
    "switched",
]

_RESIDENCE = {
    "en": r"\bliv(?:e|es|ing)\b|\bresid\w*|\bbased in\b",
    "ja": r"住んで|住む|住ま|暮らし|在住",
}
_RESIDENCE_UNITS = frozenset({"liv", "resid", "base", "住", "暮", "人暮", "在住"})
# "moved from Leeds to Galway": the place after "from" is the one left behind.
_FROM_PLACE = {"en": r"\bfrom\s+[a-z]+(?:\s+[a-z]+)?", "ja": r"[^\s、。]{1,8}から"}
_PREFERENCE_UNITS = frozenset({"大好", "好", "苦手", "得意", "嫌", "lik", "lov", "hat", "enjoy"})


def stopped(old: Sentence, new: Sentence) -> Finding | None:
    """Quitting, cancelling, breaking up, "no longer", "used to", やめた, 中止, もう〜ない."""
    if not cue(lex.STOPPED, new) or cue(lex.ENDED, old) or cue(lex.STOPPED, old):
        return None
    shared = anchors(old, new)
    if not shared or sibling_swap(old, new) or not cue_about_old(lex.STOPPED[new.lang], old, new):
        return None  # the end cue must be about the old memory's fact, not a reason or person
    return Finding(Relation.CONTRADICTORY, 0.9, f"ended or cancelled: {', '.join(shared[:3])}")


def resumed(old: Sentence, new: Sentence) -> Finding | None:
    """Something the old memory said had stopped has started again (again, 再開)."""
    was_off = cue(lex.STOPPED, old) or cue(lex.ENDED, old) or old.negative
    if not was_off or new.negative or not cue(lex.RESUMPTION, new):
        return None
    shared = anchors(old, new)
    if not shared:
        return None
    return Finding(Relation.CONTRADICTORY, 0.8, f"started again: {', '.join(shared[:3])}")


def stance_flip(old: Sentence, new: Sentence) -> Finding | None:
    """Negation or preference reversed on the same thing: loves olives ↔ can't stand olives.

    An old memory that already says something ended ("no longer rides a unicycle") is only
    contradicted by a resumption (``resumed``), not by any positive mention.
    """
    if old.negative == new.negative or cue(lex.STOPPED, old) or cue(lex.ENDED, old):
        return None
    shared = [u for u in anchors(old, new) if not _is_preference(u, old.lang)]
    if not shared or sibling_swap(old, new):
        return None
    if coverage(old, new) < 0.5 and not cue(lex.CHANGE, new):
        return None
    turned = "negative" if new.negative else "positive"
    reason = f"stance turned {turned}: {', '.join(shared[:3])}"
    return Finding(Relation.CONTRADICTORY, 0.8, reason)


def _is_preference(unit: str, lang: str) -> bool:
    """A preference word is the stance itself, not the thing the stance is about."""
    if unit in _PREFERENCE_UNITS:
        return True
    return any(re.fullmatch(p[lang], unit) for p in (lex.PREF_POS, lex.PREF_NEG))


def moved(old: Sentence, new: Sentence) -> Finding | None:
    """A move or a new home (moved to Osaka, 引っ越した, got her own apartment) vs where
    the old memory said the person lives."""
    if not re.search(_RESIDENCE[old.lang], old.text):
        return None
    started = cue(lex.RESIDENCE_START, new) or (
        re.search(_RESIDENCE[new.lang], new.text) is not None and cue(lex.CHANGE, new)
    )
    if not started or cue(lex.RESIDENCE_START, old):
        return None
    destination = re.sub(_FROM_PLACE[new.lang], " ", new.text)
    place = [u for u in old.content if u not in _RESIDENCE_UNITS]
    if place and all(u in destination or u in _words_of(destination, new) for u in place):
        return None
    return Finding(Relation.CONTRADICTORY, 0.85, "moved: a new home replaces the old one")


def _words_of(text: str, sentence: Sentence) -> frozenset[str]:
    if sentence.lang == "ja":
        return frozenset()
    return frozenset(en_lemma(w) for w in re.findall(r"[a-z]+", text))


def quantity_changed(old: Sentence, new: Sentence) -> Finding | None:
    """The same measured thing with a different number: age 29 → 30, twice a week → daily,
    $1,200 → $1,350. Consistent refinements ("more than 20" → 27) do not fire."""
    units = changed_units(old.quantities, new.quantities)
    if not units:
        return None
    if any(u == "age" or u.startswith("grade:") for u in units):
        return Finding(Relation.CONTRADICTORY, 0.85, f"changed number: {units[0]}")
    if new.past_occasion and not cue(lex.CHANGE, new):
        return None
    counted = [u for u in units if u not in ("freq", "$") and found_in(u, old)]
    if not (counted or anchors(old, new)) or sibling_swap(old, new):
        return None
    if units == ["freq"] and coverage(old, new) < 0.5:
        return None
    return Finding(Relation.CONTRADICTORY, 0.8, f"changed number: {units[0]}")


def status_changed(old: Sentence, new: Sentence) -> Finding | None:
    """A single-valued status with a new value: single → married, 保育園 → 小学校.

    Plans ("plans to marry", 結婚する予定) are not facts yet and do not fire.
    """
    if cue(lex.PLAN, new) or new.negative:
        return None
    for slot, values in lex.STATUS_SLOTS.items():
        before = _status(values[old.lang], old.text)
        after = _status(values[new.lang], new.text)
        if len(before) == 1 and len(after) == 1 and before != after:
            return Finding(Relation.CONTRADICTORY, 0.8, f"{slot} changed: {before[0]} → {after[0]}")
    return None


def _status(values: tuple[tuple[str, str], ...], text: str) -> list[str]:
    return [name for name, pattern in values if re.search(pattern, text)]


def favorite_changed(old: Sentence, new: Sentence) -> Finding | None:
    """ "favourite food is sushi" → "favourite food these days is ramen": one favourite at a
    time, so a different value for the same kind replaces it."""
    before = re.search(lex.FAVORITE_VALUE[old.lang], old.text)
    after = re.search(lex.FAVORITE_VALUE[new.lang], new.text)
    if before is None or after is None or before.group("kind") != after.group("kind"):
        return None
    old_value = _value_units(before.group("value"), old)
    if not old_value or any(found_in(u, new) for u in old_value):
        return None
    return Finding(Relation.CONTRADICTORY, 0.8, f"favourite {before.group('kind')} changed")


def _value_units(value: str, sentence: Sentence) -> list[str]:
    """Topic units of a phrase ("sushi", 「ラーメン」) in the sentence's language."""
    if sentence.lang == "en":
        words = re.findall(r"[a-z]+", value)
        return [en_lemma(w) for w in words if w not in FACT_TOPIC_STOPWORDS]
    return [u for u in sentence.content if u in value]


def completed(old: Sentence, new: Sentence) -> Finding | None:
    """Working towards something, then done: "studying for a sommelier diploma" → "passed it"."""
    if not (cue(lex.PURSUIT, old) and cue(lex.COMPLETED, new)):
        return None
    shared = anchors(old, new)
    if not shared or sibling_swap(old, new) is not None:
        return None  # another thing of the kind done (英検, not 漢検): no end
    return Finding(Relation.CONTRADICTORY, 0.75, f"completed: {', '.join(shared[:3])}")


def switched(old: Sentence, new: Sentence) -> Finding | None:
    """A change of job or of owned thing (転職, 乗り換えた, switched to) where the old memory
    named a job or thing the new one no longer mentions, and the cue's clause does not name
    the old one's (joined "the nursery where she works now" is its history, not a switch)."""
    for name, domain in lex.DOMAINS.items():
        cue_re, topic_re = domain[f"cue_{old.lang}"], domain[f"topic_{old.lang}"]
        if not re.search(cue_re, new.text) or re.search(cue_re, old.text):
            continue
        if cue_about_old(domain[f"cue_{new.lang}"], old, new):
            continue  # joined or took up the very thing the old memory names: no switch
        if re.search(topic_re, old.text) and lost_units(old, new):
            return Finding(Relation.CONTRADICTORY, 0.8, f"switched {name}")
    return None


def replaced(old: Sentence, new: Sentence) -> Finding | None:
    """A change cue (now, switched to, 〜になった, 〜から) with the same frame but a new value:
    night shifts → day shifts, 営業部 → 人事部, casual → polite."""
    if not _strong_change(new) or cue(lex.CHANGE, old):
        return None
    if cue(lex.STOPPED, old) or cue(lex.ENDED, old):
        return None  # moving on from something already over is consistent with it
    if cue(lex.ADDITIVE, new) or cue(lex.NARROWING, new):
        return None
    swap = sibling_swap(old, new)
    if swap is not None:
        return Finding(Relation.CONTRADICTORY, 0.75, f"changed to: {swap[0]} → {swap[1]}")
    shared, lost, share = anchors(old, new), lost_units(old, new), coverage(old, new)
    if old.lang == "ja":
        lost = [u for u in lost if len(u) > 1]  # a lone verb stem (続, 通) names no value
    # A shared everyday verb (話す, speak) is a frame only when it is half the old memory.
    if not lost or share < 0.25 or not (shared or share >= 0.5):
        return None
    if _numbers_agree(old, new):
        return None  # "5年以上" → "7年目": a refinement told with a start date, not a change
    return Finding(Relation.CONTRADICTORY, 0.65, f"changed: {', '.join(lost[:2])} replaced")


def _numbers_agree(old: Sentence, new: Sentence) -> bool:
    """Both memories quantify the same unit and no value changed."""
    shared_units = {q.unit for q in old.quantities} & {q.unit for q in new.quantities}
    return bool(shared_units) and not changed_units(old.quantities, new.quantities)


def _strong_change(sentence: Sentence) -> bool:
    """A change cue other than a bare "now" / 今は."""
    weak = re.sub(lex.WEAK_CHANGE[sentence.lang], " ", sentence.text)
    return re.search(lex.CHANGE[sentence.lang], weak) is not None
