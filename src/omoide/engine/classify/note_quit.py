"""An end a note tells in its first clause, of something the old memory names whole (pure).

``note_close`` reads an end ("gave up the bassoon", ファゴットをやめた) only in a sentence with no
mark of a report or a plan anywhere, and a Japanese end only of a noun written in kanji or
katakana. Notes often go on after the end ("has given up on the bassoon, says the neighbours
won", "packed in the salsa, the knees weren't having it") and many things are written with
kana (そろばん, 米作り, 切り絵). This reader takes the end in the clause that says it, right
after the subject, and closes only when every word of the ended thing is in the old memory's
present sentences about the same subject (そろばんをやめた → そろばん教室に通ってる). Never
for a part ("sold forty of the cows"), a drop-off ("dropped the kids at school"), a wish or
a negation (やめたい, やめてない, "might give up"). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.note_claim import Claim, en_owned, en_units
from omoide.engine.lang import word_set

__all__ = ["quit_claims", "quitted"]

_EN_ADVERBS = re.compile(r"^(?:(?:has|have|'s|finally|just|now|officially|actually|also) )+")
_EN_END = re.compile(
    r"^(?:gave up(?: on)?|given up(?: on)?|packed in|packed up|dropped|stopped(?! by| at| in"
    r"| off| to| for| over)|quit|hung up|handed back|stepped down from|stood down from"
    r"|retired from|sold|deleted|cancell?ed|shut down|closed down) (?P<what>.+)"
)
_EN_WHAT_END = re.compile(
    r",| - | after | because | since | so | when | in | at | to | for "
    r"| with | on | last | this | off\b| back\b| and "
)
_EN_NOT_END = re.compile(
    r"(?<![\w\-])(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty"
    r"|fifty|hundred|some|half|most|part|few|couple|bit|one of|of the|another|extra)(?![\w\-])"
)
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|wants?|hopes?|going to|gonna|planning"
    r"|plans?|thinking|considering|not|never|almost|nearly|for (?:the|a) (?:summer|winter"
    r"|week|month|few|while|couple)|temporarily|until|till)\b|n't\b|\?"
)
# An old clause of the past or of an absence or end already ("doesn't drink coffee", "before
# retiring"): nothing held now for a note to end.
_EN_OLD_PAST = re.compile(
    r"\b(?:was|were|had|used to|ago|once|\d{4}|last (?:year|summer|winter"
    r"|spring|autumn|month|week)|not|never|no|without|retir\w*|quit"
    r"|gave up|given up|stopped|vegetarian|vegan|teetotal)\b|n't\b"
)
# An end told as back-story: at an age or a stage of life ("gave up meat at nineteen").
_EN_BACKSTORY = re.compile(
    r"\b(?:at (?:\d+|age|the age|university|uni|school|college|[a-z]+teen|twenty|thirty|forty"
    r"|fifty|sixty|seventy|eighty)|when|ago|years (?:ago|earlier|before|back)|as a (?:kid|child"
    r"|teen\w*|student)"
    r"|back in|in \d{4})\b"
)
_EN_STOP = word_set("the a an his her their its my our whole entire old lot") | lex.EN_TIME_WORDS


def _en_units(text: str, subject: str) -> frozenset[str]:
    return en_units(text, subject, _EN_STOP, verbs=True)


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        if old:
            clauses = [
                c
                for c in re.split(r", | and | but |; ", rest)
                if not _EN_OLD_PAST.search(c) and not _en_past(c)
            ]
            out.append(Claim(subject, "quit", "", _en_units(" ".join(clauses), subject), "held"))
            continue
        clause = _EN_ADVERBS.sub("", re.split(r", | - |; ", rest, maxsplit=1)[0].strip())
        m = _EN_END.match(clause)
        if m is None or _EN_UNSURE.search(clause) or _EN_BACKSTORY.search(clause):
            continue
        what = _EN_WHAT_END.split(f"{m.group('what')} ", maxsplit=1)[0]
        cue = clause[: m.start("what")].strip()
        if _EN_NOT_END.search(what) or (cue == "left" and not what.startswith("the ")):
            continue
        out.append(Claim(subject, "quit", "", _en_units(what, subject), "quit", cue=cue))
    return out


def _en_past(clause: str) -> bool:
    """Whether the clause tells a past event ("passed the harp exam"): nothing held now."""
    verb = _EN_ADVERBS.sub("", clause.strip()).split(" ", 1)[0]
    return verb in lex.EN_PAST_IRREGULAR or (verb.endswith("ed") and verb != "need")


# --- Japanese ------------------------------------------------------------------------------

# The ended thing: back to the clause's start or its topic, then を / は and an ending verb done.
_JA_END = re.compile(
    r"(?:^|[、は])(?P<what>[^、。はがをにで]{2,14})(?:を|は)(?:もう)?(?P<cue>やめ|辞め|抜け|卒業し"
    r"|引退し|退い|譲っ|手放し|閉め|たたん)(?P<after>.{0,4})"
    # given or sold to someone, all of it (民生委員を後任に譲った, ニワトリを全部近所の人に譲った,
    # バイクを売って)
    r"|(?:^|[、は])(?P<given>[^、。はがをにで]{2,14})を(?:全部|すべて)?(?:[^、。をがは]{1,8}?に)?"
    r"(?P<cue2>譲っ|手放し|売っ|売り払っ)(?P<after2>.{0,4})"
)
# Done, not asked for, wished or denied: やめた, やめて…, not やめてほしい, やめたい, やめてない.
_JA_DONE = re.compile(
    r"^(?:た(?!い|く|かっ|が)|だ(?!い|く|かっ|が)|ちゃ|じゃ"
    r"|て(?!ほし|欲し|くれ|もら|おく|おこ|とく|みる|みよ|な|い)"
    r"|で(?!な|い))"
)
# An old sentence telling a past event (賞をもらったんだ): nothing held now.
_JA_PAST = re.compile(
    r"(?:た|だった|でした|ました)(?:んだ|んです|の|のよ|んだって|って|らしい|よ"
    r"|ね|わ|そう|なあ|な)*[。！!～〜笑wｗ\s]*$"
)
_JA_UNSURE = re.compile(
    r"予定|つもり|かも|かな|なら|たら(?!しい)|れば|ようと|ようか|検討|考えて"
    r"|迷って|もし|ことに(?:し|な)|[?？]"
)
_JA_PART = re.compile(r"[〇一二三四五六七八九十百千\d]|半分|一部|何|いくつ|少し|残り")
_JA_TRIM = re.compile(r"(?:作り|通い|づくり|の仕事|の活動|の練習|の勉強)$")
_JA_OLD_PAST = re.compile(r"昔|以前|前は|当時|頃|ころ|時代")
# An old clause of an absence or an end already (吸ってない, 引退した): nothing held now.
_JA_OLD_NONE = re.compile(r"ない|なく|ず(?!っと|つ|いぶん)|やめ|辞め|引退|卒業")
# An end told as back-story (二十歳でやめた, 学生の頃に).
_JA_BACKSTORY = re.compile(r"[歳才]で|の頃|のころ|の時|年前|時代|昔|以前|当時")


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if subject is None:
            continue
        if old:
            held = "、".join(c for c in body.split("、") if not _JA_OLD_NONE.search(c))
            if held and not _JA_OLD_PAST.search(body) and not _JA_PAST.search(body):
                out.append(Claim(subject, "quit", "", frozenset({held}), "held"))
            continue
        if _JA_UNSURE.search(body) or _JA_BACKSTORY.search(body):
            continue
        for m in _JA_END.finditer(body):
            if m.group("given") and _JA_PART.search(body[m.end("given") : m.start("cue2")]):
                continue  # some of them given (三羽を近所の人に), not the whole
            what = _JA_TRIM.sub("", m.group("what") or m.group("given"))
            if len(what) >= 2 and _JA_DONE.match(m.group("after") or m.group("after2") or ""):
                out.append(
                    Claim(
                        subject,
                        "quit",
                        "ja",
                        frozenset({what}),
                        "quit",
                        cue=m.group("cue") or m.group("cue2"),
                    )
                )
    return out


# --- the decision --------------------------------------------------------------------------


def quit_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """What the old memory holds now, per subject (``old``), or the ends a note tells."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def quitted(was: Claim, now: Claim) -> set[str]:
    """The ended thing when the old memory names all of it for the same subject, else empty."""
    if was.shape != "held" or now.shape != "quit" or was.subject != now.subject or not now.value:
        return set()
    if now.frame == "ja":
        return set(now.value) if any(x in y for x in now.value for y in was.value) else set()
    return set(now.value) if now.value <= was.value else set()
