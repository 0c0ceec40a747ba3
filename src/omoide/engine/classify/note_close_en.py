"""The English reader of ``note_close``: what each sentence surely says of its subject (pure).

The subject is a name (or "User") opening the sentence, or a pronoun standing for the sentence
before's; a state is a frame of ``one_slot`` said right after it in the present ("lives in
Leeds", "works as a welder"); an end is an ending verb done ("quit the bakery", "moved out of
York", "broke up with Sam") or a cue of ``note_cues_en`` ("no more X", "sold the X"); what one
does now is read too, for an end to name. A plan, a hypothetical, a report or a past retold
sinks the sentence; a state said next to a second value ("also", part-time) may be ended by
name but never replaced (``note_claim.second``). The patterns are in ``note_close_en_patterns``.
No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify import note_cues_en as cues
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_claim import SINGLE, Claim, second, spanned, wide
from omoide.engine.classify.note_close_en_patterns import (
    EN_ADVERBS,
    EN_BREAK,
    EN_END,
    EN_GENERIC_LEMMAS,
    EN_MOVED_TO_HOME,
    EN_NO_VERB,
    EN_NOT_A_SUBJECT,
    EN_NOT_PAST,
    EN_PAST_MARK,
    EN_PRONOUN,
    EN_ROLE,
    EN_SECOND,
    EN_START,
    EN_STATE,
    EN_SUBJECT,
    EN_THE_USER,
    EN_UNSURE,
    EN_VALUE_STOP,
)
from omoide.engine.classify.note_count import en_counts
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = ["en_claims", "en_told"]


def en_told(text: str) -> list[tuple[str | None, str]]:
    """Each sentence of ``text`` ("the user" read as a saved "User"): its subject and the rest
    as written, for the change readers of ``note_change``."""
    return [(s, w) for s, _, w in _en_sentences(EN_THE_USER.sub("User", text))]


def _en_sentences(text: str) -> list[tuple[str | None, str, str]]:
    """Each sentence's subject (None when it is someone's something, or unknown) and the rest,
    lower-cased; a pronoun stands for the subject of the sentence before only when that sentence
    names no one else ("Ken met Ola. He quit …" has no sure subject). The rest as written too."""
    out: list[tuple[str | None, str, str]] = []
    last: str | None = None
    for raw in re.split(r"(?<=[.!?])\s+", text):
        raw = cues.rewrite(raw.strip().rstrip(".!"))
        pronoun = EN_PRONOUN.match(raw)
        head = EN_SUBJECT.match(raw)
        if pronoun:
            subject, rest = last, pronoun.group("rest")
        elif (
            head
            and not head.group("rest").startswith(("'s", " and ", " or "))
            and (head.group("s").lower() not in EN_NOT_A_SUBJECT or head.group("s") == "User")
        ):
            subject, rest = head.group("s").lower(), head.group("rest").strip()
        else:
            subject, rest = None, raw
        last = subject if not re.search(r"\b[A-Z]", rest) else None
        out.append((subject, _en_norm(rest), rest))
    return out


def _en_norm(text: str) -> str:
    text = text.replace("\u2019", "'").lower()
    return re.sub(r"n't\b", " not", re.sub(r"\bwon't\b", "will not", text))


def _en_value(text: str, subject: str, *, whole: bool = False) -> frozenset[str]:
    head = text if whole else EN_BREAK.split(f" {text} ", maxsplit=1)[0]
    words = re.findall(r"[a-z0-9][a-z0-9'&\-]*", head)
    lemmas = (
        en_lemma(w.removesuffix("'s"))
        for w in words
        if w not in FACT_TOPIC_STOPWORDS
        and w not in EN_VALUE_STOP
        and w.removesuffix("'s") != subject
    )
    return frozenset(
        x
        for x in lemmas
        if len(x) > 1 and x not in lex.EN_GENERIC_VERBS and x not in EN_GENERIC_LEMMAS
    )


def _en_past(clause: str) -> bool:
    """Whether the clause tells a past event (its verb in the past: "passed the exam", "was
    chosen"): what it says stays true whatever ends later."""
    verb = clause.split(" ", 1)[0]
    return (
        verb in lex.EN_PAST_IRREGULAR
        or verb in ("was", "were", "had", "did")
        or (verb.endswith("ed") and verb not in EN_NOT_PAST)
    )


def en_claims(text: str, *, old: bool = False) -> list[Claim]:
    text = EN_THE_USER.sub("User", text)  # the consolidator's subject, as a saved "User …"
    out = [
        Claim(
            m.group("s").lower(),
            "partner",
            "at",
            frozenset({m.group("t").lower()}),
            "role",
            cue="partner",
        )
        for m in cues.PARTNER.finditer(text)
    ]
    for subject, rest, written in _en_sentences(text):
        couple = cues.COUPLE_SPLIT.match(written) if subject is None else None
        if couple and not EN_UNSURE.search(_en_norm(couple.string)):
            one, other = couple.group("s").lower(), couple.group("t").lower()
            out += [
                Claim(a, "partner", "", frozenset({b}), "end", cue="split")
                for a, b in ((one, other), (other, one))
            ]
        if subject is not None and cues.SINGLE.match(EN_ADVERBS.sub("", rest)):
            out.append(Claim(subject, "partner", "", SINGLE, "role", cue="single"))
        if subject is None:
            continue
        # an old memory's clause of the past ("used to be a mechanic") leaves its other clauses
        # standing; a plan, a hypothetical or a report sinks the whole sentence, as in a note
        by_clause = old and not EN_UNSURE.search(EN_PAST_MARK.sub(" ", rest))
        if EN_UNSURE.search(rest) and not by_clause:
            continue
        clauses = [
            c
            for c in re.split(r",? and | but |, ", rest)
            if not (by_clause and EN_PAST_MARK.search(c))
        ]
        span = _en_value(" , ".join(clauses), subject, whole=True)
        # a move is to a home when it names a place or a dwelling ("moved to Leeds", "moved to
        # a tiny studio"), not to "the night shift"
        home = EN_MOVED_TO_HOME.search(written) is not None
        found = []
        for clause in clauses:
            # "has given the pigeons away": a deed done (present perfect), not what one does
            done = cues.PERFECT.match(clause.strip()) is not None
            clause = EN_ADVERBS.sub("", clause.strip())
            found += [
                spanned(c, span)
                for c in _en_clause(subject, clause, moved_home=home)
                if not (done and c.shape == "activity")
            ]
            if not EN_SECOND.search(rest):
                found += [
                    c
                    for c in en_counts(subject, clause)
                    if c.cue == "count now" or not _en_past(clause)
                ]
        out += [second(c) if EN_SECOND.search(rest) else wide(c) for c in found]
    return out


def _en_clause(subject: str, clause: str, *, moved_home: bool = True) -> list[Claim]:
    out = []
    for kind, pattern in EN_STATE.items():
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
    # touching that stuff")
    if (
        not _en_past(clause)
        and not any(p.match(clause) for _, p in EN_END)
        and not re.search(r"\b(?:not|never)\b", clause)
        and not EN_NO_VERB.match(clause)
    ):
        home = any(c.kind == "home" for c in out)  # where one lives: no group one leaves
        out.append(
            Claim(
                subject,
                "activity",
                "home" if home else "whole",
                _en_value(clause, subject, whole=True),
                "activity",
            )
        )
        if not home:  # what the clause's verb takes, up to its first break: what one may sell
            verb, _, rest = clause.partition(" ")
            out.append(
                Claim(
                    subject,
                    "activity",
                    "head",
                    _en_value(rest, subject),
                    "activity",
                    cue=en_lemma(verb),
                )
            )
    m = EN_ROLE.match(clause)
    if m:
        value = re.split(r" (?:in|on|near|at|for) ", m.group("value"), maxsplit=1)[0]
        out.append(Claim(subject, "work", "role", _en_value(value, subject), "role"))
    for kind, frame, pattern in EN_START:
        m = pattern.match(clause) if kind != "home" or moved_home else None
        if m:
            value = m.group("value") or m.groupdict().get("value2") or ""
            out.append(Claim(subject, kind, frame, _en_value(value, subject), "state"))
    for kind, pattern in EN_END:
        m = pattern.match(clause)
        if m and not m.group("value"):
            out.append(
                Claim(
                    subject,
                    kind,
                    "",
                    _en_value(m.group("value2"), subject),
                    "end",
                    cue=clause.split(" ", 1)[0],
                )
            )
        elif m:
            # "left the orchestra": a definite group or employer, which may end what one does
            the = "the" if m.group("value").startswith("the ") else ""
            out.append(
                Claim(
                    subject,
                    kind,
                    the,
                    _en_value(m.group("value"), subject),
                    "end",
                    cue=clause.split(" ", 1)[0],
                )
            )  # the verb: the reason names it
    m = cues.NO_MORE.match(clause)
    if m:
        out.append(
            Claim(subject, "any", "", _en_value(m.group("value"), subject), "end", cue="no more")
        )
    if cues.PARTNERED.match(clause):
        out.append(Claim(subject, "partner", "", SINGLE, "end", cue="single"))
    m = cues.NO_LONGER.match(clause)
    if m:
        said = m.group("rest") or re.sub(r"^(\S+)", r"\1s", m.group("neg"))
        out.append(
            Claim(subject, "any", "", _en_value(said, subject, whole=True), "end", cue="no longer")
        )
    m = cues.CANNOT.match(clause)
    if m:
        out.append(
            Claim(
                subject,
                "any",
                "",
                _en_value(m.group("value"), subject, whole=True),
                "end",
                cue="no more",
            )
        )
    m = cues.SOLD.match(clause)
    if m:
        out.append(
            Claim(subject, "any", "", _en_value(m.group("value"), subject), "end", cue="sold")
        )
    return out
