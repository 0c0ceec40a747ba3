"""When a consolidated note surely closes an older memory: one sentence, one sure shape (pure).

A note a conversation produced holds many statements ("Bjørn quit the ferry job. Bjørn is
tired of the rain."), and the rules and the judge, built on one-statement facts, close true
facts on notes. This reader closes only on two shapes, each read in one sentence of the note
alone against one sentence of the old memory:

* **a single-valued state with another value**: the note says its subject lives, works,
  studies or is married somewhere or to someone (the state frames of :mod:`one_slot`, the
  kinds that hold one value at a time), the old memory says the same subject is in the same
  frame, and the two values share no word ("lives in Leeds" → "lives in York";
  東京に住んでいる → 大阪に住んでいる);
* **an explicit end of the old value**: the note says its subject quit, left, moved out of,
  broke up with … something the old memory's state names ("works at a bakery" → "quit the
  bakery"; 消防署に勤めている → 消防署を辞めた).

Both need the same subject at the head of both sentences (a note about a friend never closes a
fact about the user; a possessive subject, "Ken's sister …", is someone else), a verb right
after that subject (a clause reporting what another person said has another head), and no
mark of a plan, a hypothetical, a habit of old, a past retold or a second value ("will",
"used to", "years ago", "also", 予定, たら, 昔, も働いて). Anything else is left to the note
path as before (never CONTRADICTORY). No I/O; deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.base import Relation
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.one_slot import EN_STATE_FRAMES, JA_STATE_FRAMES
from omoide.engine.classify.signals import Finding
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, detect_lang, word_set

__all__ = ["Claim", "claims", "note_closes"]

# The state kinds a note may close on: one value at a time, said the same way by any writer.
_KINDS = ("home", "work", "study", "partner")


@dataclass(frozen=True)
class Claim:
    """What one sentence says of its subject: a state holding ``value`` ("state"), an end of
    ``value`` ("end"), or (old memories only) a role the subject has ("role")."""

    subject: str
    kind: str  # "home", "work", "study", "partner"; "any" for an end of unknown kind
    frame: str  # the frame's preposition class ("at", "as", "in", …): values compare within one
    value: frozenset[str]
    shape: str  # "state", "end", "role", "activity"
    span: frozenset[str] = frozenset()  # the whole clause's words: what an end may name


# --- English -------------------------------------------------------------------------------

_EN_SUBJECT = re.compile(r"^(?P<s>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)(?P<rest> .*)$")
_EN_PRONOUN = re.compile(r"^(?:He|She|They) (?P<rest>.*)$")
_EN_ADVERBS = re.compile(r"^(?:(?:now|currently|finally|recently|just|officially|actually|has|have"
                         r"|already|even) )+")
# A second value: the state may hold another value besides.
_EN_SECOND = re.compile(
    r"\b(?:also|too|as well|another|second|part[- ]time|side (?:job|gig|hustle)|on the side"
    r"|sometimes|occasionally|during|summers?|winters?|weekends?|volunteer\w*|freelanc\w*"
    r"|hobby|spare time|free time)\b")
# A plan, a hypothetical, a past retold, a habit of old, a report: no state said as now.
_EN_UNSURE = re.compile(
    r"\b(?:when|whenever|if|unless|would"
    r"|might|may|could|should|will|going to|gonna|plans?|planning|planned|hopes?|hoping|wants?"
    r"|wanted|thinking|considering|dreams?|used to|says|said|thinks|thought|told|tells|claims"
    r"|apparently|for a while|temporarily|for now|until|till|back in|ago|as a (?:kid|child|teen"
    r"|student)|once|next|soon|tomorrow|maybe|perhaps|probably|wish|wishes|had|was|were"
    r"|pretend\w*|imagin\w*|\d{4})\b|\?")
_EN_BREAK = re.compile(r",|;|:| - | and | but | so | because | since | while | where | who "
                       r"| which | after | before | to | from | with | for | now\b| these days"
                       r"| anymore| any more")
_EN_GENERIC_LEMMAS = frozenset(en_lemma(w) for w in (
    "doing", "does", "going", "goes", "having", "has", "getting", "gets", "making", "makes",
    "taking", "takes", "working", "works", "living", "lives", "being", "is", "are"))
_EN_VALUE_STOP = word_set(
    "job work place company firm local new old small big little nice same other one there here "
    "city town area flat house apartment home room shop office full time place somewhere "
    "someone something lol haha really very good great bit lot everything all every each "
    "january february march april may june july august september october november december "
    "spring summer autumn fall winter monday tuesday wednesday thursday friday saturday sunday "
    "morning mornings evening evenings night nights"
) | lex.EN_TIME_WORDS
# A frame read as stated (present tense, right after the subject); the preposition decides
# which values compare ("works at" an employer, "works as" a job).
_EN_STATE = {kind: re.compile(rf"^(?:is |are )?(?P<frame>{EN_STATE_FRAMES[kind]}) (?P<value>.+)")
             for kind in _KINDS}
_EN_ROLE = re.compile(r"^(?:is|works as|serves as) (?:an?|the) (?P<value>.+)")
# Ends: the cue right after the subject, its object the ended value.
_EN_END = (
    ("any", re.compile(r"^(?:quit|gave up|given up|stopped(?! by| at| in| off| to| for| over)"
                       r"|dropped out of) (?P<value>.+)")),
    ("left", re.compile(r"^(?:left(?!.*\b(?:early|late|hurry|o'clock|\d ?[ap]m|lunch|for the day"
                        r"|for home|this morning|tonight|yesterday|shift|meeting|appointment"
                        r"|surgery|discharged|visit)\b)|resigned from|retired from|walked out of"
                        r"|stopped working (?:at|for|as|in)|(?:was|got) (?:laid off|let go|fired)"
                        r" (?:from|by)|lost (?:his|her|their|the) job (?:at|as|with)"
                        r"|handed in (?:his|her|their) notice at|graduated from)"
                        r" (?P<value>.+)")),
    ("home", re.compile(r"^(?:moved (?:out |away )?from|moved out of) (?P<value>.+)")),
    ("partner", re.compile(r"^(?:broke up with|split (?:up )?(?:with|from)|separated from"
                           r"|divorced|dumped) (?P<value>.+)")),
)
_EN_NO_LONGER = re.compile(r"^(?:is )?no longer (?P<rest>.+)|^does not (?P<neg>.+) any ?more\b")
# A start of a new value: a new home or a new employer.
_EN_START = (
    ("home", "at", re.compile(r"^(?:moved|relocated) to (?P<value>.+)")),
    ("work", "at", re.compile(r"^(?:got|took|taken|started|landed) (?:a|an) (?:[a-z\-]+ ){0,2}job"
                              r" (?:at|with) (?P<value>.+)"
                              r"|^started working (?:at|for) (?P<value2>.+)")),
)


# A capitalised opening word that names no one (a determiner, a pronoun, a time, a lead-in).
_EN_NOT_A_SUBJECT = FACT_TOPIC_STOPWORDS | word_set(
    "the a an my our your his her their its this that these those it there we i you he she they "
    "when if after before since while today yesterday tomorrow last next now then so but and "
    "also big good great sadly luckily finally apparently honestly anyway user's everyone someone")


def _en_sentences(text: str) -> list[tuple[str | None, str]]:
    """Each sentence's subject (None when it is someone's something, or unknown) and the rest,
    lower-cased, a pronoun standing for the subject of the sentence before."""
    out: list[tuple[str | None, str]] = []
    last: str | None = None
    for raw in re.split(r"(?<=[.!?])\s+", text):
        raw = raw.strip().rstrip(".!")
        pronoun = _EN_PRONOUN.match(raw)
        head = _EN_SUBJECT.match(raw)
        if pronoun and last is not None:
            subject, rest = last, pronoun.group("rest")
        elif head and not head.group("rest").startswith(("'s", " and ", " or ")) \
                and head.group("s").lower() not in _EN_NOT_A_SUBJECT:
            subject, rest = head.group("s").lower(), head.group("rest").strip()
        else:
            subject, rest = None, raw
        last = subject
        out.append((subject, _en_norm(rest)))
    return out


def _en_norm(text: str) -> str:
    text = text.replace("\u2019", "'").lower()
    return re.sub(r"n't\b", " not", re.sub(r"\bwon't\b", "will not", text))


def _en_value(text: str, subject: str, *, whole: bool = False) -> frozenset[str]:
    head = text if whole else _EN_BREAK.split(f" {text} ", maxsplit=1)[0]
    words = re.findall(r"[a-z0-9][a-z0-9'&\-]*", head)
    lemmas = (en_lemma(w.removesuffix("'s")) for w in words
              if w not in FACT_TOPIC_STOPWORDS and w not in _EN_VALUE_STOP
              and w.removesuffix("'s") != subject)
    return frozenset(x for x in lemmas if len(x) > 1 and x not in lex.EN_GENERIC_VERBS
                     and x not in _EN_GENERIC_LEMMAS)


def _en_past(clause: str) -> bool:
    """Whether the clause tells a past event (its verb in the past: "passed the exam", "was
    chosen"): what it says stays true whatever ends later."""
    verb = clause.split(" ", 1)[0]
    return verb in lex.EN_PAST_IRREGULAR or verb in ("was", "were", "had", "did") or (
        verb.endswith("ed") and verb not in _EN_NOT_PAST)


_EN_NOT_PAST = word_set("need needed")


def _en_claims(text: str) -> list[Claim]:
    out = []
    for subject, rest in _en_sentences(text):
        if subject is None or _EN_UNSURE.search(rest):
            continue
        span = _en_value(rest, subject, whole=True)
        for clause in re.split(r",? and | but |, ", rest):
            clause = _EN_ADVERBS.sub("", clause.strip())
            out += [_spanned(c, span) for c in _en_clause(subject, clause)]
        if _EN_SECOND.search(rest):
            out = [_second(c) for c in out]
    return out


def _spanned(claim: Claim, span: frozenset[str]) -> Claim:
    return Claim(claim.subject, claim.kind, claim.frame, claim.value, claim.shape, span)


def _second(claim: Claim) -> Claim:
    """A state said next to a mark of a second value ("also", part-time, 週末): it may still be
    ended by name, never replaced by another value."""
    if claim.shape != "state":
        return claim
    return Claim(claim.subject, claim.kind, claim.frame, claim.value, "role", claim.span)


def _en_clause(subject: str, clause: str) -> list[Claim]:
    out = []
    for kind, pattern in _EN_STATE.items():
        m = pattern.match(clause)
        if m and not re.match(r"stays?\b", m.group("frame")):
            prep = m.group("frame").split()[-1]
            frame = "at" if prep in ("at", "for", "in") and kind != "work" else prep
            if kind == "work" and prep in ("in", "with", "on"):
                frame = f"in:{prep}"  # a field or a project: not compared
            value = m.group("value")
            if kind in ("work", "study"):
                value = re.split(r" (?:in|on|near|at) ", value, maxsplit=1)[0]
            out.append(Claim(subject, kind, frame, _en_value(value, subject), "state"))
    if not _en_past(clause) and not any(p.match(clause) for _, p in _EN_END):
        out.append(Claim(subject, "activity", "", _en_value(clause, subject, whole=True),
                         "activity"))
    m = _EN_ROLE.match(clause)
    if m:
        value = re.split(r" (?:in|on|near|at|for) ", m.group("value"), maxsplit=1)[0]
        out.append(Claim(subject, "work", "role", _en_value(value, subject), "role"))
    for kind, frame, pattern in _EN_START:
        m = pattern.match(clause)
        if m:
            value = m.group("value") or m.groupdict().get("value2") or ""
            out.append(Claim(subject, kind, frame, _en_value(value, subject), "state"))
    for kind, pattern in _EN_END:
        m = pattern.match(clause)
        if m:
            out.append(Claim(subject, kind, "", _en_value(m.group("value"), subject), "end"))
    m = _EN_NO_LONGER.match(clause)
    if m:
        said = m.group("rest") or f"{m.group('neg')}s"
        out.append(Claim(subject, "any", "", _en_value(said, subject, whole=True), "end"))
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_NOUN = r"[\u3400-\u9fff\u30a0-\u30ffA-Za-z0-9々ー・]+"
_JA_VALUE = rf"(?P<value>{_JA_NOUN}(?:の{_JA_NOUN})*)"
_JA_SUBJECT = re.compile(
    r"^(?P<s>[^、。はがをにでのと\s「」]{1,10}?)(?:さん|ちゃん|くん|君)?(?:は、?|、)")
_JA_TIME_AS_TOPIC = re.compile(r"(?:今|最近|現在|いま|この頃|近頃)は")
_JA_TIME_TOPIC = re.compile(r"^(?:今|最近|現在|いま|この頃|近頃|[^、。]{1,4}から)$")
_JA_SECOND = re.compile(
    r"掛け持ち|副業|も(?:働|住|勤|通|付)|週末|土日|時々|ときどき|たまに|休みの日")
_JA_UNSURE = re.compile(
    r"予定|つもり|たい(?!へん)|かも|かな|なら|たら(?!しい)|れば|ようと|ようか|検討|考えて|迷って"
    r"|夢|昔|以前|前は|当時|頃|ころ|時代|まで"
    r"|将来|いつか|来年|来月|来週|再来|もし|って言|と言|みたい|年前|\d{4}年|？|\?")
# A past event told (選ばれた, 終えたんだ, 行ったらしい): the sentence's last predicate in the past.
_JA_PAST = re.compile(r"(?:た|だった|でした|ました)(?:んだ|んです|の|のよ|んだって|って|らしい|よ"
                      r"|ね|わ|そう|みたい|なあ|な)*[。！!～〜笑wｗ\s]*$")
_JA_PRESENT = re.compile(r"^(?:る|いる|います|ます|て|いて|おり|、|。|$|だ|で|です|なん|な)")
_JA_STATE = {kind: re.compile(rf"{_JA_VALUE}(?P<frame>{JA_STATE_FRAMES[kind]})(?P<after>.{{0,3}})")
             for kind in ("home", "work", "partner")}
_JA_STATE["study"] = re.compile(rf"{_JA_VALUE}(?P<frame>に在学|に在籍|の学生)(?P<after>.{{0,3}})")
_JA_ROLE = re.compile(rf"{_JA_VALUE}(?:として働いて|をして)(?:る|いる|います)")
# Done, not asked for or meant: やめて, not やめてほしい / やめておく / やめてみる.
_JA_DONE = r"(?:た|て(?!ほし|欲し|くれ|もら|おく|おこ|とく|みる|みよ)|ちゃ|じゃ)"
_JA_END = (
    ("any", re.compile(rf"{_JA_VALUE}(?:の仕事)?[をは]?(?:辞め|やめ|退会し|退部し){_JA_DONE}")),
    ("left", re.compile(rf"{_JA_VALUE}(?:の仕事)?[をは]?(?:退職し|退社し|卒業し|中退し|退学し"
                        rf"|クビになっ){_JA_DONE}")),
    ("home", re.compile(rf"{_JA_VALUE}から(?:引っ越し|引越し|転居し){_JA_DONE}")),
    # leaving a place ends a home only when the sentence says where one lives now (東京を出て
    # alone is as often a trip)
    ("home", re.compile(rf"{_JA_VALUE}を(?:出|離れ){_JA_DONE}"
                        r"(?=.*(?:暮らし|住ん|住み|引っ越|引越))")),
    ("partner", re.compile(rf"{_JA_VALUE}と(?:別れ|離婚し){_JA_DONE}")),
)
_JA_START = (
    ("home", re.compile(rf"{_JA_VALUE}に(?:引っ越し|引越し|転居し|移住し|移り住ん){_JA_DONE}")),
    ("work", re.compile(rf"{_JA_VALUE}(?:に|へ)(?:異動|転職|就職|入社|転勤)し{_JA_DONE}")),
)
_JA_VALUE_STOP = frozenset({"会社", "仕事", "職場", "店", "家", "部屋", "近く", "今", "新しい",
                            "マンション", "アパート", "ところ", "所"})
_JA_NOT_A_VALUE = re.compile(
    r"一緒|みんな|家族|[一二三四五六七八九十何数\d]+人|ひとり|夫婦|親子|自分")
_JA_RUN = re.compile(r"[\u3400-\u9fff々]+|[\u30a0-\u30ffー・]+|[A-Za-z0-9]+")


def _ja_value(value: str, *, name: bool = False) -> frozenset[str]:
    """The value's units: each kanji run's bigrams, each katakana or Latin run whole; a single
    kanji or letter only when the value is a person's ``name`` (健)."""
    units: set[str] = set()
    if _JA_NOT_A_VALUE.search(value):
        return frozenset()  # with whom or how many, not where (家族と一緒に, 五人で)
    for run in _JA_RUN.findall(value):
        if run in _JA_VALUE_STOP:
            continue
        if len(run) == 1:
            if name:
                units.add(run)  # else one kanji or letter alone (朝, 家) names nothing surely
        elif re.fullmatch(r"[\u3400-\u9fff々]+", run):
            units.update(run[i:i + 2] for i in range(len(run) - 1))
        else:
            units.add(run)
    return frozenset(units)


def _ja_claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    last: str | None = None
    for sentence in re.split(r"(?<=[。！!])", text):
        sentence = sentence.strip()
        m = _JA_SUBJECT.match(sentence)
        topic = m.group("s") if m else None
        if topic is None or _JA_TIME_TOPIC.match(topic):
            subject, body = last, sentence  # no topic of its own: the note's subject goes on
        else:
            subject, body = topic, sentence[m.end():] if m else sentence
        last = subject
        if subject is None or not body or _JA_UNSURE.search(body):
            continue
        span = _ja_value(body)
        found = [_spanned(c, span) for c in _ja_sentence(subject, body)]
        out += [_second(c) for c in found] if _JA_SECOND.search(body) else found
    return out


def _ja_sentence(subject: str, body: str) -> list[Claim]:
    out = []
    for kind, pattern in _JA_STATE.items():
        for m in pattern.finditer(body):
            if _JA_PRESENT.match(m.group("after")) and _own(body, m.start()):
                frame = "as" if m.group("frame") == "として働いて" else "at"
                value = _ja_value(m.group("value"), name=kind == "partner")
                out.append(Claim(subject, kind, frame, value, "state"))
    for m in _JA_ROLE.finditer(body):
        if _own(body, m.start()):
            out.append(Claim(subject, "work", "role", _ja_value(m.group("value")), "role"))
    if not _JA_PAST.search(body) and not any(p.search(body) for _, p in _JA_END):
        out.append(Claim(subject, "activity", "", _ja_value(body), "activity"))
    for shape, table in (("end", _JA_END), ("state", _JA_START)):
        for kind, pattern in table:
            for m in pattern.finditer(body):
                if _own(body, m.start()):
                    frame = "" if shape == "end" else "at"
                    value = _ja_value(m.group("value"), name=kind == "partner")
                    out.append(Claim(subject, kind, frame, value, shape))
    return out


def _own(body: str, start: int) -> bool:
    """Whether the clause before the value names no other subject (が / は; a time as topic,
    今は or 最近は, is none)."""
    return not re.search(r"[がは]", _JA_TIME_AS_TOPIC.sub("", body[:start].split("、")[-1]))


# --- the decision --------------------------------------------------------------------------

_SUFFIX = re.compile(r"\s*[(（][^()（）]*[)）]")


def claims(text: str, lang: str = "auto") -> list[Claim]:
    """Every claim the reader is sure of in ``text`` (bracketed asides and dates dropped)."""
    text = _SUFFIX.sub("", unicodedata.normalize("NFKC", text)).strip()
    chosen = lang if lang in ("en", "ja") else detect_lang(text)
    return _ja_claims(text) if chosen == "ja" else _en_claims(text)


def note_closes(old: str, new: str, lang: str = "auto") -> Finding | None:
    """CONTRADICTORY when a sentence of the note ``new`` surely changes a state of ``old``'s
    (a state with another value, or an end of its value); else None."""
    before = [c for c in claims(old, lang) if c.shape in ("state", "role", "activity")]
    after = claims(new, lang)
    for was in before:
        for now in after:
            if was.subject != now.subject or not was.value or not now.value:
                continue
            if now.shape == "state" and was.shape == "state" and was.kind == now.kind \
                    and was.frame == now.frame and not was.frame.startswith("in:") \
                    and _disjoint(was.value, now.value) and _disjoint(was.value, now.span) \
                    and _disjoint(was.span, now.value):
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: {was.kind} now {'/'.join(sorted(now.value))}")
            named = _shared(was.value | was.span if now.kind == "any" else was.value, now.value)
            if now.shape == "end" and _ends(now.kind, was) and named:
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: ended {'/'.join(sorted(named))}")
    return None


def _ends(kind: str, was: Claim) -> bool:
    """Whether an end of ``kind`` ends the old claim: quitting ends anything the subject does,
    leaving or resigning a job or a school (not a place: one leaves a town for a trip), a move
    out a home, a break-up a partner."""
    if kind == "any":
        return True
    if kind == "left":
        return was.shape in ("state", "role") and was.kind in ("work", "study")
    return kind == was.kind


def _shared(a: frozenset[str], b: frozenset[str]) -> set[str]:
    """The units both name: the same unit, or a katakana run inside a longer one (ボルダリング
    in ボルダリングジム; English words only whole: "art" is not in "party")."""
    return {x for x in a for y in b
            if x == y or (min(len(x), len(y)) >= 3 and _WHOLE_RUN.fullmatch(x + y)
                          and (x in y or y in x))}


_WHOLE_RUN = re.compile(r"[\u30a0-\u30ffー・]+")


def _disjoint(a: frozenset[str], b: frozenset[str]) -> bool:
    return not (a & b) and not any(x in y or y in x for x in a for y in b)
