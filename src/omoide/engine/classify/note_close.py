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

Ends said other ways ("no more X", "sold the X": ``note_cues_en``; もう…ない, 閉めた), a
couple's split, being single ended and counts said as changed (``note_count``) are read too;
plans ended, things moved and new homes by ``note_change``. bench/results/note_close*.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify import note_cues_en as cues
from omoide.engine.classify.base import Candidate, Relation, Verdict
from omoide.engine.classify.ended_negated import negated_in_old
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_change import change_claims, change_closes
from omoide.engine.classify.note_claim import SINGLE, Claim, second, spanned, wide
from omoide.engine.classify.note_close_ja import ja_claims, ja_sentences
from omoide.engine.classify.note_count import count_changed, en_counts
from omoide.engine.classify.one_slot import EN_STATE_FRAMES
from omoide.engine.classify.signals import Finding
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, detect_lang, word_set

__all__ = ["Claim", "claims", "note_closes", "note_verdict"]

# The state kinds a note may close on: one value at a time, said the same way by any writer.
_KINDS = ("home", "work", "study", "partner")


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
    r"|student)|at (?:the )?age|at (?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen"
    r"|eighteen|nineteen|twenty)|once|next|soon|tomorrow|maybe|perhaps|probably|wish|wishes|had|was|were"
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
    ("any", re.compile(r"^(?:quit|gave up(?: on)?|given up(?: on)?|stopped(?! by| at| in| off| to"
                       r"| for| over)|dropped out of|packed in|(?:stepped|stood) down (?:as|from)"
                       r"|stepped back from|retired as) (?P<value>.+)")),
    # shut, closed, signed off for good; handed over or back; done at, finished at / on
    ("any", re.compile(r"^(?:closed|shut(?: down)?|signed off|hung up) (?P<value>.+?) (?:for good"
                       r"|for the last time|permanently)\b")),
    ("any", re.compile(r"^(?:handed (?:over|back) (?P<value>.+)|handed (?P<value2>.+?)"
                       r" (?:over|back) to\b.*)")),
    ("any", re.compile(r"^(?:is )?(?:done|finished) (?:at|on) (?P<value>.+)")),
    ("left", re.compile(r"^(?:left(?!.*\b(?:early|late|hurry|o'clock|\d ?[ap]m|lunch|for the day"
                        r"|for home|this morning|tonight|yesterday|shift|meeting|appointment"
                        r"|surgery|discharged|visit|holidays?|trip|weekend|for a (?:week|day|night"
                        r"|few days))\b)|resigned from|retired from|walked out of"
                        r"|stopped working (?:at|for|as|in)|(?:was|got) (?:laid off|let go|fired)"
                        r" (?:from|by)|lost (?:his|her|their|the) job (?:at|as|with)"
                        r"|handed in (?:his |her |their |[a-z\-]+'s )?notice (?:at|to)"
                        r"|graduated from)"
                        r" (?P<value>.+)")),
    ("home", re.compile(r"^(?:moved (?:out |away |back )?from|moved out of) (?P<value>.+)")),
    ("partner", re.compile(r"^(?:broke up with|split (?:up )?(?:with|from)|separated from"
                           r"|divorced|dumped) (?P<value>.+)")),
)
# A start of a new value: a new home or a new employer.
_EN_START = (
    ("home", "at", re.compile(r"^(?:(?:moved|relocated)(?: back)? to|moved into) (?P<value>.+)")),
    ("work", "at", re.compile(r"^(?:got|took|taken|started|landed) (?:a|an) (?:[a-z\-]+ ){0,2}job"
                              r" (?:at|with) (?P<value>.+)"
                              r"|^started working (?:at|for) (?P<value2>.+)")),
)


# A capitalised opening word that names no one (a determiner, a pronoun, a time, a lead-in).
_EN_NOT_A_SUBJECT = FACT_TOPIC_STOPWORDS | word_set(
    "the a an my our your his her their its this that these those it there we i you he she they "
    "when if after before since while today yesterday tomorrow last next now then so but and "
    "also big good great sadly luckily finally apparently honestly anyway user's everyone someone")


def _en_sentences(text: str) -> list[tuple[str | None, str, str]]:
    """Each sentence's subject (None when it is someone's something, or unknown) and the rest,
    lower-cased; a pronoun stands for the subject of the sentence before only when that sentence
    names no one else ("Ken met Ola. He quit …" has no sure subject). The rest as written too."""
    out: list[tuple[str | None, str, str]] = []
    last: str | None = None
    for raw in re.split(r"(?<=[.!?])\s+", text):
        raw = cues.rewrite(raw.strip().rstrip(".!"))
        pronoun = _EN_PRONOUN.match(raw)
        head = _EN_SUBJECT.match(raw)
        if pronoun:
            subject, rest = last, pronoun.group("rest")
        elif head and not head.group("rest").startswith(("'s", " and ", " or ")) \
                and (head.group("s").lower() not in _EN_NOT_A_SUBJECT or head.group("s") == "User"):
            subject, rest = head.group("s").lower(), head.group("rest").strip()
        else:
            subject, rest = None, raw
        last = subject if not re.search(r"\b[A-Z]", rest) else None
        out.append((subject, _en_norm(rest), rest))
    return out


# A clause that opens on a noun phrase ("the user's cholesterol …", "eleven weeks clean") says
# what someone or something else does, not the subject.
_EN_NO_VERB = re.compile(
    r"^(?:the|a|an|my|his|her|their|its|this|that|these|those|some|all|every|each|no"
    r"|[a-z\-]+'s|\d[\d,.]*|" + "|".join(lex.EN_NUMBER_WORDS) + r")\b")
_EN_THE_USER = re.compile(r"\b[Tt]he user\b")


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
# The marks of _EN_UNSURE that put one clause in the past (not a plan's or a condition's scope).
_EN_PAST_MARK = re.compile(r"\b(?:used to|years ago|ago|back in|once|had|was|were|\d{4})\b")


def _en_claims(text: str, *, old: bool = False) -> list[Claim]:
    text = _EN_THE_USER.sub("User", text)  # the consolidator's subject, as a saved "User …"
    out = [Claim(m.group("s").lower(), "partner", "at", frozenset({m.group("t").lower()}), "role",
                 cue="partner") for m in cues.PARTNER.finditer(text)]
    for subject, rest, written in _en_sentences(text):
        couple = cues.COUPLE_SPLIT.match(written) if subject is None else None
        if couple and not _EN_UNSURE.search(_en_norm(couple.string)):
            one, other = couple.group("s").lower(), couple.group("t").lower()
            out += [Claim(a, "partner", "", frozenset({b}), "end", cue="split")
                    for a, b in ((one, other), (other, one))]
        if subject is not None and cues.SINGLE.match(_EN_ADVERBS.sub("", rest)):
            out.append(Claim(subject, "partner", "", SINGLE, "role", cue="single"))
        if subject is None:
            continue
        # an old memory's clause of the past ("used to be a mechanic") leaves its other clauses
        # standing; a plan, a hypothetical or a report sinks the whole sentence, as in a note
        by_clause = old and not _EN_UNSURE.search(_EN_PAST_MARK.sub(" ", rest))
        if _EN_UNSURE.search(rest) and not by_clause:
            continue
        clauses = [c for c in re.split(r",? and | but |, ", rest)
                   if not (by_clause and _EN_PAST_MARK.search(c))]
        span = _en_value(" , ".join(clauses), subject, whole=True)
        # a move is to a home when it names a place or a dwelling ("moved to Leeds", "moved to
        # a flat"), not to "the night shift"
        home = _EN_MOVED_TO_HOME.search(written) is not None
        found = []
        for clause in clauses:
            # "has given the pigeons away": a deed done (present perfect), not what one does
            done = cues.PERFECT.match(clause.strip()) is not None
            clause = _EN_ADVERBS.sub("", clause.strip())
            found += [spanned(c, span) for c in _en_clause(subject, clause, moved_home=home)
                      if not (done and c.shape == "activity")]
            if not _EN_SECOND.search(rest):
                found += [c for c in en_counts(subject, clause)
                          if c.cue == "count now" or not _en_past(clause)]
        out += [second(c) if _EN_SECOND.search(rest) else wide(c) for c in found]
    return out


_EN_MOVED_TO_HOME = re.compile(
    r"\b(?:(?:moved|relocated)(?: back)? to|moved into) "
    r"(?:(?:a|an|the|his|her|their|new|own|tiny|small|big) )*"
    r"(?:[A-Z]|(?:flat|house|apartment|studio|bungalow|cottage|room|home|place)\b)")


def _en_clause(subject: str, clause: str, *, moved_home: bool = True) -> list[Claim]:
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
    # what one does now: not a past deed, not an end, not what one does not do ("still not
    # reading that stuff")
    if not _en_past(clause) and not any(p.match(clause) for _, p in _EN_END) \
            and not re.search(r"\b(?:not|never)\b", clause) and not _EN_NO_VERB.match(clause):
        home = any(c.kind == "home" for c in out)  # where one lives: no group one leaves
        out.append(Claim(subject, "activity", "home" if home else "whole",
                         _en_value(clause, subject, whole=True), "activity"))
        if not home:  # what the clause's verb takes, up to its first break: what one may sell
            verb, _, rest = clause.partition(" ")
            out.append(Claim(subject, "activity", "head", _en_value(rest, subject), "activity",
                             cue=en_lemma(verb)))
    m = _EN_ROLE.match(clause)
    if m:
        value = re.split(r" (?:in|on|near|at|for) ", m.group("value"), maxsplit=1)[0]
        out.append(Claim(subject, "work", "role", _en_value(value, subject), "role"))
    for kind, frame, pattern in _EN_START:
        m = pattern.match(clause) if kind != "home" or moved_home else None
        if m:
            value = m.group("value") or m.groupdict().get("value2") or ""
            out.append(Claim(subject, kind, frame, _en_value(value, subject), "state"))
    for kind, pattern in _EN_END:
        m = pattern.match(clause)
        if m and not m.group("value"):
            out.append(Claim(subject, kind, "", _en_value(m.group("value2"), subject), "end",
                             cue=clause.split(" ", 1)[0]))
        elif m:
            # "left the orchestra": a definite group or employer, which may end what one does
            the = "the" if m.group("value").startswith("the ") else ""
            out.append(Claim(subject, kind, the, _en_value(m.group("value"), subject), "end",
                             cue=clause.split(" ", 1)[0]))  # the verb: the reason names it
    m = cues.NO_MORE.match(clause)
    if m:
        out.append(Claim(subject, "any", "", _en_value(m.group("value"), subject), "end",
                         cue="no more"))
    if cues.PARTNERED.match(clause):
        out.append(Claim(subject, "partner", "", SINGLE, "end", cue="single"))
    m = cues.NO_LONGER.match(clause)
    if m:
        said = m.group("rest") or re.sub(r"^(\S+)", r"\1s", m.group("neg"))
        out.append(Claim(subject, "any", "", _en_value(said, subject, whole=True), "end",
                         cue="no longer"))
    m = cues.CANNOT.match(clause)
    if m:
        out.append(Claim(subject, "any", "", _en_value(m.group("value"), subject, whole=True),
                         "end", cue="no more"))
    m = cues.SOLD.match(clause)
    if m:
        out.append(Claim(subject, "any", "", _en_value(m.group("value"), subject), "end",
                         cue="sold"))
    return out


# --- the decision --------------------------------------------------------------------------

_SUFFIX = re.compile(r"\s*[(（][^()（）]*[)）]")


def claims(text: str, lang: str = "auto", *, old: bool = False) -> list[Claim]:
    """Every claim the reader is sure of in ``text`` (bracketed asides and dates dropped);
    ``old``: the text is the older memory, whose English clauses of the past drop alone."""
    text = _SUFFIX.sub("", unicodedata.normalize("NFKC", text)).strip()
    chosen = lang if lang in ("en", "ja") else detect_lang(text)
    if chosen == "ja":
        return ja_claims(text) + change_claims(ja_sentences(text), "ja", old=old)
    told = [(s, w) for s, _, w in _en_sentences(_EN_THE_USER.sub("User", text))]
    return _en_claims(text, old=old) + change_claims(told, "en", old=old)


def note_verdict(candidate: Candidate, after: Sequence[Claim], lang: str = "auto", *,
                 prefix: str = "") -> Verdict | None:
    """The verdict a consolidated note gives ``candidate`` when it surely closes it, else None:
    the note path's one entry for both classifiers. ``after`` is the note's claims
    (``claims(new, lang)``), read once per note for all its candidates; ``prefix`` is put
    before the reason (the learned classifier marks what its rules decided with "rule: ")."""
    found = _closes(candidate.content, after, lang)
    if found is None:
        return None
    return Verdict(candidate.key, found.relation, found.confidence, prefix + found.reason)


def note_closes(old: str, new: str, lang: str = "auto") -> Finding | None:
    """CONTRADICTORY when a sentence of the note ``new`` surely changes a state of ``old``'s
    (a state with another value, or an end of its value); else None. Reads ``new`` on each
    call: a classifier reads a note once and calls ``note_verdict``."""
    return _closes(old, claims(new, lang), lang)


def _closes(old: str, after: Sequence[Claim], lang: str) -> Finding | None:
    said = claims(old, lang, old=True)
    before = [c for c in said if c.shape in ("state", "role", "activity", "count")]
    for was in before:
        for now in after:
            if was.subject != now.subject:
                continue
            if was.shape == "count" == now.shape and now.amount and count_changed(was, now):
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: {now.frame} now {now.amount.value:g} (count)")
            if not was.value or not now.value or "count" in (was.shape, now.shape):
                continue
            if now.shape == "state" and was.shape == "state" and was.kind == now.kind \
                    and was.frame == now.frame and not was.frame.startswith("in:") \
                    and _disjoint(was.value, now.value) and _disjoint(was.value, now.span) \
                    and _disjoint(was.span, now.value):
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: {was.kind} now {'/'.join(sorted(now.value))}")
            named = _shared(was.value | was.span if now.kind == "any" else was.value, now.value)
            if now.cue in ("no more", "sold") and len(named) < len(now.value):
                continue  # "no more X" closes only what the old sentence names whole
            if now.cue == "sold" and (was.frame in ("whole", "home") or not named - {was.cue}):
                continue  # a thing sold is what the old clause's verb takes, not the verb
            if now.shape == "end" and _ends(now, was) and named \
                    and not negated_in_old(named, old, lang):  # "drinks no coffee": no end
                cue = f" ({now.cue})" if now.cue else ""
                return Finding(Relation.CONTRADICTORY, 0.9,
                               f"note: ended {'/'.join(sorted(named))}{cue}")
    return change_closes(said, after)


def _ends(now: Claim, was: Claim) -> bool:
    """Whether the end ``now`` ends the old claim: quitting ends anything the subject does,
    leaving or resigning a job or a school, or what the subject does now in a group named
    with "the" ("plays in the youth orchestra" → "left the youth orchestra"; not a place one
    lives: one leaves a town for a trip), a move out a home, a break-up a partner."""
    kind = now.kind
    if kind == "any":
        return True
    if kind == "left":
        return (was.shape in ("state", "role") and was.kind in ("work", "study")) or (
            now.frame == "the" and was.shape == "activity" and was.frame != "home")
    return kind == was.kind


def _shared(a: frozenset[str], b: frozenset[str]) -> set[str]:
    """The units both name: the same unit, or a katakana run inside a longer one (ボルダリング
    in ボルダリングジム; English words only whole: "art" is not in "party")."""
    return {x for x in a for y in b
            if x == y or (min(len(x), len(y)) >= 3 and _WHOLE_RUN.fullmatch(x + y)
                          and (x in y or y in x)) or _head(x, y) or _head(y, x)}


def _head(one: str, unit: str) -> bool:
    """Whether a single kanji is the head of a kanji unit (寮 of 生寮: a student hall is a hall)."""
    return len(one) == 1 and len(unit) > 1 and _KANJI.fullmatch(one + unit) is not None \
        and unit.endswith(one)


_KANJI = re.compile(r"[\u3400-\u9fff々]+")
_WHOLE_RUN = re.compile(r"[\u30a0-\u30ffー・]+")


def _disjoint(a: frozenset[str], b: frozenset[str]) -> bool:
    return not (a & b) and not any(x in y or y in x for x in a for y in b)
