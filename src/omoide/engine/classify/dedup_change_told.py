"""Dedup's told-change veto: the new memory says in so many words that something changed (pure).

Trigger: dedup's learned judge (not a sure screen) would drop a new memory as a duplicate of a
current one. Why: a change told in other words ("irons his shirts on Sunday evenings" / "has
gone over to non-iron shirts", 専門の病院に連れて行っている /
近所の病院で診てもらうようになった) keeps most of the old memory's words and its topic, so the
judge reads it as one more wording of it; dropping it loses the new fact and leaves the old, now
false, one current. Outcome: ``change_told`` — the cue by which the new memory tells a change
(an end, a start, a switch, a return, a first time, a state said as it is now), when the old
memory tells no change of its own; else None.

The new memory's cues are narrow (``_TOLD``), the old memory's wide (``_OLD``): a paraphrase of
a memory that already tells a change ("dropped Mandarin" / "quit Mandarin", 替え / 替えた,
やすくなった / ようになった) says one in both, in words the narrow list may not hold, and stays a
duplicate. Japanese ``〜になっている`` / ``〜ようになっている`` (a state, 習慣になっている) is no
cue; ``〜ようになった`` (it became so) is. Deterministic; no I/O.
"""

from __future__ import annotations

import re

from omoide.engine.lang import is_japanese

__all__ = ["change_told"]

# The new memory's cues: each tells that something is no longer as it was.
_TOLD = {
    "en": re.compile(
        r"\bno longer\b|\bany ?more\b|\bnot \w+ (?:now|these days|any ?more)\b"
        r"|\b(?:has|have|had) (?:now )?(?:stopped|quit|given up|dropped|ditched)\b"
        r"|\bstopped\b|\bgave up\b|\bgot rid of\b|\bpacked in\b|\blet (?:\w+ ){1,3}go\b"
        r"|\b(?:has|have) (?:now )?(?:switched|moved|changed|swapped|started|begun|taken up)\b"
        r"|\bswitched (?:to|over)\b|\bswapped (?:\w+ ){0,3}for\b|\bchanged (?:\w+ ){0,3}to\b"
        r"|\b(?:come|came|gone|went) (?:round|around|over) to\b|\btaken over\b|\btook over\b"
        r"|\bis out\b|\binstead\b|\bnow\b|\bthese days\b|\bnowadays\b|\blately\b"
        r"|\bsince (?:then|(?:her|his|their|the) \w+ (?:started|began|moved|left))\b"
        r"|\bagain\b|\bresumed\b|\bgone back to\b|\bwent back to\b"
        r"|\bfor the first time\b|\bfirst time\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(
        r"最近|今は|今では|現在は|このごろ|この頃|近頃|もう.{0,12}(?:ない|ません|なかった)"
        r"|やめ|辞め|止め|外した|消した|閉じた|手放し|解約|退会"
        r"|ようになった|ようになり|ようにした|ことにした|ことにしました|ようにしました|ようになりました"
        r"|(?:に|へ)(?:替え|変え|換え|切り替え|乗り換え)|移した|移った|移って"
        r"|てから(?:は|、|というもの)|(?:に|く)なってから|になった|になり[、,]|になりました|再開|戻った|戻して|戻し|復帰|初めて|始めた|始めて|しなくなっ|なくなっ"
    ),
}
# The old memory's cues, wider: a change of its own, told in any words.
_OLD = {
    "en": re.compile(
        r"\bno longer\b|\bany ?more\b|\bused to\b|\bstop\w*|\bquit\w*|\bg[ai]ve(?:n)? up\b"
        r"|\bdrop\w*|\bditch\w*|\bswitch\w*|\bswap\w*|\bchang\w*|\breplac\w*|\bmov(?:e|ed|ing)\b"
        r"|\bstart\w*|\bbeg[au]n\b|\btook up\b|\btaken up\b|\bnow\b|\bthese days\b"
        r"|\bnowadays\b|\blately\b|\bsince\b|\bagain\b|\bresum\w*|\breturn\w*|\bback\b"
        r"|\bfirst\b|\bnew\b|\binstead\b|\bbecame\b|\bbecome\b|\bturned\b|\bleft\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(
        r"最近|今は|今では|現在|このごろ|この頃|近頃|もう|やめ|辞め|止め|外し|消し|閉じ|手放"
        r"|解約|退会|なった|なって|なり|ようにし|ことにし|替え|変え|換え|移し|移っ|てから|再開"
        r"|戻っ|戻し|復帰|初|始め|てきた|以前|昔|元は|から|異動|転勤|転職|引っ越|転居"
    ),
}


def change_told(old: str, new: str) -> str | None:
    """The words by which ``new`` tells a change that ``old`` does not tell (``old`` holds
    none of the wider list of change words), or None."""
    lang = "ja" if is_japanese(old) or is_japanese(new) else "en"
    found = _TOLD[lang].search(new)
    if found is None or _OLD[lang].search(old) is not None:
        return None
    return found.group(0)
