"""A present fact or habit told ended: "plays squash every Wednesday" → "packed in the
Wednesday squash"; ネットフリックスを契約している → 解約した (pure).

**Trigger** (``habit_ended``). The old memory states a present fact or habit: no no, no past,
no former frame (``former_state.old_is_present``), no plan ("will", 予定) and no end of its
own ("is deciding whether to quit", 辞めるか迷っている). The new memory tells an end ("quit",
"gave up", "stopped", "packed in", "let … lapse", "handed … back", "stepped down", "cut out",
"cancelled", やめた, 辞めた, 退会, 解約, 手放した, 引退), not negated or hedged in the clause that
holds it ("hasn't quit", "might give up", やめないかも), with no plan or condition anywhere, and
not as back-story dated before now ("stopped smoking in 2011", "gave up at 16", 十年前に…).
The clause that holds the end names the old memory's thing and nothing else: every topic word
of it is said in the old memory, one at least (a word any end or plan has, "plan", "whole",
予定, names nothing): "stopped volunteering at the hospice" ends "volunteers at the children's
hospice"; "gave up sugar in her coffee" names sugar, which "drinks coffee every morning" does
not, and is left to the judge. One owner and no person or link in the new subject the old one
lacks (``negation_turn``'s check). The old memory does not say the thing under a no ("drinks no
coffee": an end of it is a reason, ``ended_negated``).

**Why.** The note reader (``note_shapes``) needs the end right after the subject; an end said
later in the sentence ("… so the planning appeal was cancelled", 潜るのをやめ) was left open
by the judge under its precision thresholds. A sibling reading of a plan called off or put off
was measured and left out: it added no close the others do not
(``bench/results/classify_round24_sure.md``).

**Outcome.** ``habit_ended`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); vetoes and the subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.ended_negated import negated_in_old
from omoide.engine.classify.former_state import NOT_MADE, old_is_present, said_in
from omoide.engine.classify.negation_turn import CLAUSE, same_people, topic_words
from omoide.engine.classify.text import Sentence, parse

__all__ = ["HABIT_END_FEATURES", "habit_end_features", "habit_ended"]

HABIT_END_FEATURES: tuple[str, ...] = ("habit_ended",)

# A plan or something under way in the old memory: no present fact to end.
_PLAN = {
    "en": re.compile(
        lex.PLAN["en"] + "|" + lex.PURSUIT["en"] + r"|\bintends? to\b"
        r"|\bis set for\b|\bscheduled\b|\bbooked\b|\bdue to\b"
    ),
    "ja": re.compile(lex.PLAN["ja"] + "|" + lex.PURSUIT["ja"] + r"|予約|目標|に向けて"),
}
# Ended: given up, quit, let lapse (not "stopped by / at / in", a visit).
_ENDED = {
    "en": re.compile(
        r"\bquit\b|\bgave up\b|\bgiven up\b|\bstopped(?! by| at| in| off| to"
        r"| for| over| at)\b|\bpacked in\b|\bpacked [\w' ]{1,30} in\b"
        r"|\blet [\w' ]{1,30} lapse\b|\bhanded [\w' ]{0,30}\bback\b"
        r"|\bstepped down\b|\bstepped back\b|\bhung up\b|\bcut out\b"
        r"|\bcancell?ed\b|\bdeleted\b|\bunsubscribed\b"
    ),
    "ja": re.compile(r"やめ|辞め|止め|退会|解約|手放|引退|退部|抜け|断念"),
}
# An end dated as back-story ("stopped smoking in 2011", "gave up at 16", 十年前にやめた).
_BACKSTORY = {
    "en": re.compile(
        r"\b(?:19|20)\d\d\b|\bago\b|\bat (?:\d+|age)\b|\bas a (?:kid"
        r"|child|teen\w*|student)\b"
    ),
    "ja": re.compile(r"(?:19|20)\d\d年|年前|歳の(?:とき|時|頃)|の頃|ころ"),
}
# A no before the cue ("hasn't cancelled", 中止しない), or a hedge.
_NOT_DONE = {
    "en": re.compile(
        r"\bnot\b|\bnever\b|\bno\b|\bmight\b|\bmay\b|\bcould\b|\bif\b"
        r"|\bunless\b|\bthinking\b|\bconsider|\bwants? to\b|\?"
    ),
    "ja": re.compile(r"ない|ません|かも|たら|なら|たい|予定|つもり|検討|考え|[?？]"),
}
# Words any end or plan has: they name no thing of their own.
_GENERIC = {
    "en": frozenset(parse("plan plans trip visit party event idea thing whole", "en").content),
    "ja": frozenset({"予定", "計画", "旅行", "全部"}),
}


def habit_ended(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory ends the old memory's present fact (module docstring)."""
    lang = new.lang
    if _PLAN[lang].search(old.text) or not old_is_present(old) or not same_people(old, new):
        return False
    if re.search(lex.STOPPED[lang], old.text) or _BACKSTORY[lang].search(new.text):
        return False  # the old memory tells an end itself; an end told as back-story
    return _cue_names_old(old, new, _ENDED[lang])


def _cue_names_old(old: Sentence, new: Sentence, cue: re.Pattern[str]) -> bool:
    """The clause of ``new`` that holds ``cue`` is not negated or hedged, and its topic words
    are all the old memory's, one at least."""
    if NOT_MADE.search(new.text) is not None:
        return False
    parts = [c for c in CLAUSE[new.lang].split(new.text) if c.strip()]
    clause = next((c for c in parts if cue.search(c)), None)
    if clause is None or _NOT_DONE[new.lang].search(clause):
        return False
    said = parse(cue.sub(" ", clause), new.lang)
    topic = [u for u in topic_words(said) if u not in _GENERIC[new.lang]]
    if not topic or said.quantities:
        return False
    return all(said_in(u, old) for u in topic) and not negated_in_old(topic, old.text, old.lang)


def habit_end_features(old: Sentence, new: Sentence) -> list[float]:
    """The HABIT_END_FEATURES row of a pair."""
    return [float(habit_ended(old, new))]
