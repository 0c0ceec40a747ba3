"""How a fact can end without a change verb: the transitions a linear judge cannot compose (pure).

Two kinds of contradiction the writers of the held-out sets use and the rules' single cues
miss, because the verdict lies in a *combination* of the two memories, not in either:

* **never → did:** the old memory says something has not happened yet ("has never seen an eclipse",
  スキーをしたことがない, まだ一度も…), the new one says, without a negation, that it did or does
  ("saw her first eclipse", 初めて献血しました, 毎朝納豆ご飯を食べている).
* **a plan dropped or moved:** the old memory is a plan or a pursuit ("plans to run Berlin",
  来年法人化するつもり), the new one calls it off, postpones or skips it ("withdrew from",
  "pushed to December", 延期, 見送り, 白紙).

Each is a feature the judge weighs (never a sure rule): a "not yet" cue, a first-time cue and
the two transitions. (A third, "a plan → told as done", lost on leave-one-source-out: a past
trip next to a planned one is two occasions as often as a plan fulfilled.) No I/O;
deterministic.
"""

from __future__ import annotations

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.text import Sentence, cue

__all__ = ["FIRST_TIME", "NOT_YET", "TRANSITION_FEATURES", "UNDONE", "transition_features"]

# Something has not happened yet, as an experience ("has never seen an eclipse", "hasn't applied
# anywhere yet", したことがない, まだ一度も): a later memory that it happened ends it.
NOT_YET = {
    "en": r"\bnever\b(?! again)|\bnot (?:\w+ ){0,3}yet\b|\bno \w+(?: \w+)? yet\b",
    "ja": r"[たっだ]ことが?(?:ない|ありません|なかった)|まだ一度も|一度も|一回も"
    r"|まだ.{0,16}(?:ていない|ていません|てない)",
}

# The first time something happened ("first time", "her first car", 初めて, デビュー).
FIRST_TIME = {
    "en": r"\bfor the first time\b|\bfirst (?:time|ever)\b"
    r"|\b(?:my|her|his|their|our|a|the) (?:very )?first\b",
    "ja": r"初めて|はじめて|初の|デビュー|初挑戦|初体験",
}

# A plan or pursuit called off, postponed, skipped or moved ("withdrew from", "pushed to
# December", 延期, 見送り, 白紙に戻した).
UNDONE = {
    "en": r"\bcancel\w*|\bcall(?:ed|s|ing)? off\b|\bpostpone\w*|\bput (?:\w+ ){0,3}off\b"
    r"|\bpush(?:ed|es)? (?:back|to|from)\b|\bpushed\b|\bdefer\w*|\bdelay\w*|\bresched\w*"
    r"|\bskip\w*|\bwithdr[ae]w\w*|\bdropped\b|\bdecided (?:not|against)\b|\bon hold\b"
    r"|\bafter all\b|\bg[ai]ve(?:n)? up\b|\bgiving up\b|\bnot (?:going|happening)\b"
    r"|\bwill not\b|\bbacked out\b|\bscrapped\b",
    "ja": r"中止|延期|見送|白紙|やめ|止め|諦め|あきらめ|取りやめ|キャンセル|延ば|に回す|に回し"
    r"|ずら|なくなっ|落選|断念|保留|先送り|せず|しないこと",
}

TRANSITION_FEATURES: tuple[str, ...] = (
    "old_not_yet",
    "new_first_time",
    "never_then_did",
    "plan_undone",
)


def transition_features(old: Sentence, new: Sentence) -> list[float]:
    """The TRANSITION_FEATURES row of a pair: [the old memory says "not yet", the new one says
    "first time", not yet → happened (the new memory is not negated), a plan or pursuit
    → called off or moved]."""
    not_yet = cue(NOT_YET, old)
    first = cue(FIRST_TIME, new)
    planned = cue(lex.PLAN, old) or cue(lex.PURSUIT, old)
    undone = cue(UNDONE, new)
    return [
        float(not_yet),
        float(first),
        float(not_yet and (first or not new.negative)),
        float(planned and undone),
    ]
