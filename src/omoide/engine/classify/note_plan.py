"""A plan a note ends: called off, put off, or done (pure).

The old memory says its subject plans, saves up for, trains for, wants or is working on
something ("is planning a trip to Lisbon in May", "is training for the Leeds half", 来年の春に
ハワイに行く予定, 検定に向けて勉強してる); the note says the same subject dropped it ("has called
off Lisbon", "the Lisbon trip is off", 旅行は中止した, 延期した) or did it ("is back from Lisbon",
"ran the Leeds half", 検定に合格した, 個展を開いた). Either way the plan is no longer current.

A plan's words and the note's must share a word that names the plan (a place, an event, a
thing: not "trip", "test", "next" or 予定, which any plan has). The owner must be the same:
the note's sentence is about the old subject, or names the plan's thing as its topic with no
one else's possessive ("Tom's trip is off" never ends Ann's). Nothing asked, hoped, negated or
conditional ("might cancel", "hasn't called it off", 中止するかも). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_claim import Claim, ja_another_subject, ja_owner, ja_units
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, word_set

__all__ = ["plan_claims", "plan_ended"]

# --- English -------------------------------------------------------------------------------

# A plan or a project under way, at the start of a clause about the subject.
_EN_PLAN = re.compile(
    r"^(?:is |are |has been |have been )?(?:still |now |currently )?"
    r"(?:planning|plans? to|saving(?: up)? (?:for|to)|training for|studying for|revising for"
    r"|preparing for|hoping to|hopes to|wants? to|would (?:love|like) to|is going to|going to"
    r"|thinking (?:of|about)|dreams? of|dreaming of|working towards|aiming (?:for|to)"
    r"|aims? to|learning [a-z]+ for|booked|has booked|(?:writing|restoring|building|working on)"
    r" (?:a|an|the|his|her|their)\b)"
)
# A plan not meant: no plan to end.
_EN_NOT_PLAN = re.compile(r"\b(?:not|never|no longer|n't)\b")
_EN_DROPPED = re.compile(
    r"^(?:has |have |had to |has had to |have had to |finally |now )*"
    r"(?:called off|call off|cancell?ed|cancel|dropped|shelved|scrapped|abandoned"
    r"|pulled out of|pull out of|given up on|gave up on|gone off|went off|put off|postponed"
    r"|ditched|pushed back|changed (?:his|her|their) mind about|backed out of|turned down"
    r"|decided against)\s+(?P<value>.+)"
)
_EN_DONE = re.compile(
    r"^(?:has |have |finally |just )*"
    r"(?:passed|sat|finished|completed|ran|raced (?:at|in)|is back from|are back from"
    r"|got back from|came back from|opened|launched|published|handed in|submitted)"
    r"\s+(?P<value>.+)"
)
# The plan said as the subject of its end ("The Lisbon trip is off", "Mia's BSA is finished").
_EN_PASSIVE = re.compile(
    r"^(?:(?P<owner>[a-z][\w\-]*)'s |the |our |their |his |her )?(?P<value>[^,;]+?) "
    r"(?:is|are|has been|have been|was|were|got|'s) (?:now |officially |finally )?"
    r"(?P<cue>off|cancell?ed|called off|postponed|shelved|scrapped|on hold|put off"
    r"|pushed back|pushed to|not happening|finished|done|over|complete|completed)\b"
)
# A part done, not the whole ("finished the first half of the quilt"): the plan goes on.
_EN_PART = re.compile(
    r"\b(?:first|second|half of|part of|stage|chapter|section|draft|round"
    r"|leg|bit of|some of|most of|still)\b"
)
# A deed done in a year said outright ("ran the Leeds half in 2022"): back-story, not the plan.
_EN_YEAR = re.compile(r"\bin (?:19|20)\d\d\b")
_EN_DONE_PASSIVE = frozenset({"finished", "done", "over", "complete", "completed"})
_EN_UNSURE = re.compile(
    r"\b(?:if|would|might|may|could|should|will|maybe|perhaps|probably|thinking|considering"
    r"|not|never|wants?|hopes?|going to|gonna|unless|whether|worried|afraid|almost|nearly)\b"
    r"|n't\b|\?"
)
# Words every plan may hold: sharing one says nothing about sharing the plan.
_EN_GENERIC = (
    word_set(
        "trip holiday holidays test exam exams party course plan plans idea job house home place "
        "summer spring autumn fall winter year month week next big new first own money time "
        "bit lot thing things one way abroad away"
    )
    | lex.EN_TIME_WORDS
    | word_set(
        "january february march april may june july august september october november december "
        "monday tuesday wednesday thursday friday saturday sunday"
    )
)


def _en_units(text: str, subject: str, *, names: bool = False) -> frozenset[str]:
    """The words naming a plan (``names``: only those written with a capital: its names); a
    name in a possessive ("Sonny's bedroom") is an owner, not the plan's thing."""
    text = re.sub(r"\b[A-Z][\w\-]*'s\b", " ", text.replace("\u2019", "'"))
    words = re.findall(r"[A-Z][A-Za-z0-9'&\-]*" if names else r"[A-Za-z0-9][A-Za-z0-9'&\-]*", text)
    words = [w.lower() for w in words]
    return (
        frozenset(
            en_lemma(w.removesuffix("'s"))
            for w in words
            if w not in FACT_TOPIC_STOPWORDS
            and w not in _EN_GENERIC
            and w.removesuffix("'s") != subject
            and len(w) > 2
            and not w.isdigit()
        )
        - lex.EN_GENERIC_VERBS
    )


def _en_plan_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, written in sentences:
        if old:
            if subject is None:
                continue
            for said in re.split(r",? and | but |, |; ", written):
                clause = said.strip().lower()
                m = _EN_PLAN.match(clause)
                if m and not _EN_NOT_PLAN.search(clause):
                    named = said.strip()[m.end() :]
                    out.append(
                        Claim(
                            subject,
                            "plan",
                            "",
                            _en_units(named, subject),
                            "plan",
                            _en_units(named, subject, names=True),
                            cue="plan",
                        )
                    )
            continue
        said = re.split(r", | - | because | since | so | as ", written, maxsplit=1)[0].strip()
        clause = said.lower().replace("\u2019", "'")
        if subject is not None:
            for cue, pattern in (("dropped", _EN_DROPPED), ("done", _EN_DONE)):
                m = pattern.match(clause)
                if (
                    m
                    and not _EN_UNSURE.search(clause)
                    and not (cue == "done" and (_EN_PART.search(clause) or _EN_YEAR.search(clause)))
                ):
                    named = said[m.start("value") :]
                    out.append(
                        Claim(
                            subject,
                            "plan",
                            "",
                            _en_units(named, subject),
                            "plan end",
                            _en_units(named, subject, names=True),
                            cue=cue,
                        )
                    )
        whole = (
            f"{subject} {clause}"
            if subject is not None and not clause.startswith("'s")
            else f"{subject or ''}{clause}"
        )
        m = _EN_PASSIVE.match(whole.strip())
        someone = m and re.match(r"([a-z\-]+)'s ", m.group("value"))
        if someone and (
            someone.group(1) in lex.EN_PERSONS or someone.group(1) in lex.EN_CHAIN_PERSONS
        ):
            continue  # "Ann's brother's trip is off": another person's plan
        if m and not _EN_UNSURE.search(whole) and not _EN_PART.search(whole):
            owner = m.group("owner") or ""
            cue = "done" if m.group("cue") in _EN_DONE_PASSIVE else "dropped"
            named = said[len(said) - len(whole) + m.start("value") : m.end("value")]
            out.append(
                Claim(
                    owner,
                    "plan",
                    "thing",
                    _en_units(m.group("value"), owner),
                    "plan end",
                    _en_units(named, owner, names=True),
                    cue=cue,
                )
            )
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_PLAN = re.compile(
    r"予定|つもり|(?<=[ぁ-ん])たい(?!へん)|目指して|目指す|目指そう|に向けて"
    r"|計画して|準備して|準備中|挑戦中"
)
_JA_NOT_PLAN = re.compile(r"(?:予定|つもり|たい)(?:は|も)?(?:ない|なく|ありません)")
_JA_END = re.compile(
    r"(?P<dropped>中止|延期|取りやめ|取り止め|とりやめ|やめ(?:た|て|に)|止め(?:た|て)|あきらめ"
    r"|諦め|見送|断念|白紙|キャンセル|行けなくなっ|なくなっ)"
    r"|(?P<done>合格|受かっ|終え|終わっ|達成|開いた|開催し|開店し|出版され|提出し|行ってきた"
    r"|帰ってきた|取った|かなっ|叶っ)"
)
_JA_NEGATED = re.compile(r"^(?:い|く|かっ|がっ)|^[^、。]{0,3}?(?:ない|なかっ|ず|ません|られな)")
_JA_UNSURE = re.compile(
    r"予定|つもり|かも|かな|なら|たら(?!しい)|れば|ようと|ようか|検討"
    r"|考えて|迷って|もし|[?？]|そうだ|そうです|そうな"
)
_JA_GENERIC = frozenset(
    {
        "予定",
        "来年",
        "今年",
        "再来",
        "将来",
        "自分",
        "一人",
        "旅行",
        "試験",
        "来月",
        "来週",
        "今度",
        "休み",
        "夏休",
        "冬休",
        "春休",
        "最近",
        "毎日",
        "一緒",
        "家族",
        "友達",
        "勉強",
        "練習",
        "準備",
        "計画",
        "目指",
        "向け",
        "初め",
        "先月",
        "先週",
        "今月",
        "今週",
        "無事",
        "結局",
        "中止",
        "延期",
    }
)


def _ja_units(text: str) -> frozenset[str]:
    return ja_units(text, _JA_GENERIC)


def _ja_plan_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if old:
            subject = subject if subject is not None else ja_owner(body)
            if subject is not None and _JA_PLAN.search(body) and not _JA_NOT_PLAN.search(body):
                out.append(Claim(subject, "plan", "", _ja_units(body), "plan", cue="plan"))
            continue
        m = _JA_END.search(body)
        if (
            m is None
            or _JA_UNSURE.search(body)
            or _JA_NEGATED.match(body[m.end() :])
            or ja_another_subject(body, m.start())
        ):
            continue  # not done, or done by another subject (友達が個展を開いた)
        frame = ""
        if subject is None:
            subject, frame = ja_owner(body), "owner"
            if subject is None or "が" in body[: m.start()]:
                continue
        cue = "done" if m.group("done") else "dropped"
        out.append(Claim(subject, "plan", frame, _ja_units(body), "plan end", cue=cue))
    return out


# --- the decision --------------------------------------------------------------------------


def plan_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """The plans (``old``) or the ends of plans (a note) in ``sentences``, each a subject
    (None when unknown) and the rest of the sentence as written."""
    return _ja_plan_claims(sentences, old) if lang == "ja" else _en_plan_claims(sentences, old)


def plan_ended(was: Claim, now: Claim) -> set[str]:
    """The words naming the plan ``was`` that the note's end ``now`` names too (empty when
    the end is not of that plan, or of someone else's)."""
    if was.shape != "plan" or now.shape != "plan end":
        return set()
    if was.span and now.span - was.span:
        return set()  # a named plan ends by its own name ("Leeds half" is not "York marathon")
    shared = _shared(was.value, now.value)
    if was.subject == now.subject:
        return shared
    # the thing as the sentence's subject ("the Lisbon trip is off", ハワイ旅行、中止): no
    # one's, or named as the plan (its topic names the plan's thing)
    if now.subject == "" or (now.frame != "owner" and _shared(was.value, _topic(now.subject))):
        return shared
    return set()


def _topic(subject: str) -> frozenset[str]:
    return _ja_units(subject) if re.search(r"[^\x00-\x7f]", subject) else frozenset({subject})


def _shared(a: frozenset[str], b: frozenset[str]) -> set[str]:
    return {x for x in a if x in b}
