"""The act the old memory says no to, told in the new memory only as another person's (pure).

**Trigger** (``negated_act_of_other``). The old memory says the subject does not do something
(English the verb after "not" / "never": "doesn't smoke", "has never owned a boat"; Japanese the
kanji of the verb before ない / ません / ず: 吸わない, 飲まない), and the new memory says that
verb only in a clause about another person: English after a relative "who" / "that" ("for a
colleague who smokes"), Japanese as a relative clause ending on a person word (吸う同僚,
飲む友人: the verb in its plain form right before ``lexicon.JA_PERSONS``). The subject's own
doing in the new memory is something else (set up a room, drove a friend home), and it says
no no of its own. Both are about one subject.

**Why.** "Doesn't smoke" and "set up a smoking corner for a colleague who smokes" are two
facts: what is done for someone who does the act does not turn the subject's own no round.
The judge read such a pair as a change (round 26, a fresh writer's, C 0.89), and the note
reader's diet turn reads "drinks" in "a friend who drinks" as the subject's. When the subject
does the act itself ("bought a phone for the grandchildren's calls") the verb is said of the
subject and the pair is left to the judge and the rules.

**Outcome.** ``negated_act_of_other`` is 1 for such a pair: a veto (``judge_signals.VETO_ONLY``):
neither the judge nor a sure rule closes it. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import undated
from omoide.engine.classify.text import Sentence

__all__ = ["OTHERS_ACT_FEATURES", "negated_act_of_other", "others_act_features"]

OTHERS_ACT_FEATURES: tuple[str, ...] = ("negated_act_of_other",)

_EN_NEGATED_VERB = re.compile(r"\b(?:not|never)\s+(?:\w+\s+)?(?P<verb>[a-z]{3,})")
_JA_NEGATED_VERB = re.compile(
    r"(?P<verb>[\u3400-\u9fff])[わかさたなまがばらえけせてねめれげべ]?"
    r"(?:ない|ません|ず)"
)
_JA_PERSON = "|".join(lex.JA_PERSONS)


def negated_act_of_other(old: Sentence, new: Sentence) -> bool:
    """Whether the old memory's negated verb is said in the new one only of another person
    (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != new.lang or not same_people(old, new) or not old.negative or new.negative:
        return False
    if old.lang == "ja":
        return any(
            _ja_others(m.group("verb"), new.text) for m in _JA_NEGATED_VERB.finditer(old.text)
        )
    return any(
        _en_others(m.group("verb")[:4], new.text)
        for m in _EN_NEGATED_VERB.finditer(old.text)
        if m.group("verb") not in lex.EN_GENERIC_VERBS
    )


def _ja_others(verb: str, text: str) -> bool:
    said = [m.start() for m in re.finditer(re.escape(verb), text)]
    return bool(said) and all(
        re.match(rf"{re.escape(verb)}[ぁ-ん]{{0,3}}[うくすつぬむるぐぶ](?:{_JA_PERSON})", text[at:])
        for at in said
    )


def _en_others(stem: str, text: str) -> bool:
    said = [m.start() for m in re.finditer(rf"\b{re.escape(stem)}", text)]
    return bool(said) and all(re.search(r"\b(?:who|that)\s+$", text[:at]) for at in said)


def others_act_features(old: Sentence, new: Sentence) -> list[float]:
    """The OTHERS_ACT_FEATURES row of a pair."""
    return [float(negated_act_of_other(old, new))]
