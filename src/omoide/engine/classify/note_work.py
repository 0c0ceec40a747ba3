"""A workplace a note says is the subject's now, by name, against the old one's name (pure).

The old memory's sentence says where its subject works, by name ("is a glazier at Wells
Cathedral", "works for Tarnside Council", "is the groundsman at Tarnside Rovers"); the note's
clause says, as now, that the same subject works at another named place ("works at Exeter
Cathedral these days", "is auctioneering at Hexham mart now", "is groundsman at Barnsley
now"). The new place must name something the old sentence does not, and the old place
something the new clause does not (every name of either in the other: the same place, or a
place inside it). Nothing also, extra, part-time or for a while. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_claim import Claim
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, word_set

__all__ = ["work_claims", "work_moved"]

_EN_WORK = re.compile(
    r"^(?:(?:still |now )?works (?:at|for|in)|is (?:a|an|the) [a-z\- ]{2,40}? (?:at|for|with)"
    r"|is (?:working|employed|based|teaching|[a-z]+ing) (?:at|for|in)"
    r"|(?:teaches|nurses|coaches|cooks|drives|manages|runs) [a-z\- ]{0,30}?(?:at|for))"
    r" (?P<place>.+)"
)
_EN_NOW = re.compile(r"\b(?:now|these days|nowadays)\b")
_EN_NOT_SOLE = re.compile(
    r"\b(?:also|too|as well|extra|another|second|part[- ]time|sometimes|occasionally|odd"
    r"|weekends?|summers?|volunteer\w*|if|would|might|may|could|should|will|going to|gonna"
    r"|wants?|hopes?|for (?:the|a) (?:summer|winter|week|month|few|while|couple)|temporarily"
    r"|until|till|was|were|had|used to|never|not|cover\w*|placement|shadowing|visit\w*"
    r"|trial|training)\b|n't\b|\?"
)
_EN_NAME_STOP = word_set("the a an i user now") | FACT_TOPIC_STOPWORDS
_EN_PLACE_END = re.compile(
    r",| - | and | but | because | since | so | now\b| these days"
    r"| nowadays| after | when "
)


def _names(written: str) -> frozenset[str]:
    """The capitalised words of a place as written: its names."""
    return frozenset(
        en_lemma(w.lower())
        for w in re.findall(r"\b[A-Z][\w'&\-]*", written)
        if w.lower() not in _EN_NAME_STOP
    )


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, written in sentences:
        if subject is None:
            continue
        for said in re.split(r", (?=and |but )|; | but ", written):
            said = said.strip()
            lower = said.lower().replace("\u2019", "'")
            m = _EN_WORK.match(lower)
            if m is None or _EN_NOT_SOLE.search(lower) or (not old and not _EN_NOW.search(lower)):
                continue
            place = _EN_PLACE_END.split(said[m.start("place") :], maxsplit=1)[0]
            names = _names(place) - {subject}
            if names:
                words = frozenset(en_lemma(w) for w in re.findall(r"[a-z][a-z'&\-]*", lower))
                out.append(
                    Claim(subject, "work", "named", names, "work" if old else "work now", words)
                )
    return out


# A job said by its name: the old memory's ("is a farrier at …", "works as a porter"), and a
# note's new one, said as begun or as now ("has started as an archivist", "got taken on as
# pastry chef", "is a ward clerk now"). Not a role of life (a mum, a member, a fan).
_EN_ROLE_OLD = re.compile(
    r"^(?:is|works as) (?:a|an|the) (?P<role>[a-z\- ]+?)"
    r"(?= at | for | in | on | with | and |,|$)"
)
_EN_ROLE_NEW = re.compile(
    r"^(?:has |have )?(?:(?:started|starts|begun|began) (?:work |working )?as"
    r"|(?:got|landed|taken|took) (?:a |the )?(?:job|post|position|role) as"
    r"|(?:been |got )?(?:taken on|made|promoted to|appointed) (?:as )?"
    r"|(?:retrained|qualified) as|is now) (?:a |an |the )?(?P<role>[a-z\- ]+?)"
    r"(?= at | for | in | on | with |,|$)"
    r"|^is (?:a|an|the) (?P<now>[a-z\- ]+?) now\b"
)
_EN_NOT_JOB = word_set(
    "mum mom dad mother father parent grandma grandmother grandad grandfather "
    "grandparent member fan vegetarian vegan regular wife husband partner "
    "friend neighbour owner customer patient student volunteer retired former "
    "ex"
)


def _en_roles(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, written in sentences:
        if subject is None:
            continue
        lower = written.lower().replace("\u2019", "'")
        said = re.split(r", | - |; | and (?!a |an )| but ", lower)[0].strip()
        m = (_EN_ROLE_OLD if old else _EN_ROLE_NEW).match(said)
        if m is None or _EN_NOT_SOLE.search(said):
            continue
        role = m.group("role") or m.groupdict().get("now") or ""
        words = frozenset(en_lemma(w) for w in role.split())
        if words and not words & _EN_NOT_JOB:
            out.append(Claim(subject, "work", "job", words, "job" if old else "job now"))
    return out


def work_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """Named workplaces and jobs of the old memory (``old``), or said as now by a note
    (English)."""
    return [] if lang == "ja" else _en_claims(sentences, old) + _en_roles(sentences, old)


def work_moved(was: Claim, now: Claim) -> set[str]:
    """The old workplace's names when the note's named one is another place, else empty."""
    if was.shape == "job" and now.shape == "job now" and was.subject == now.subject:
        return set(was.value) if not was.value & now.value else set()  # another job
    if was.shape != "work" or now.shape != "work now" or was.subject != now.subject:
        return set()
    if now.value <= was.span or was.value <= now.span:
        return set()  # every name of one in the other: the same place, or one inside the other
    return set(was.value)
