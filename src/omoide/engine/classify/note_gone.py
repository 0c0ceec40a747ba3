"""One a note says died: a pet or a person the old memory names as there now (pure).

The old memory names a pet or a person as now: the subject of a present sentence ("Bertram
lives alone"), a pet called or named so ("a gecko called Horatio", "two rabbits, Quince and
Nib", "Osgood's collie Zeb", タマという三毛猫, 柴犬のこむぎ, 名前はクロ); the note says that one
died, was put down or was buried ("Horatio died in the night", "buried Zeb by the hawthorn",
"scattered Quince's ashes", こむぎが虹の橋を渡った, クロは…亡くなった). What the old memory says
of the one gone (or of the household holding them) is over. Nothing nearly, feared or of
another ("nearly died", "Ann's mum died": the name must be the one that died). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.note_claim import Claim

__all__ = ["gone", "gone_claims"]

_PETS = (
    r"dog|cat|puppy|kitten|pony|horse|donkey|tortoise|turtle|rabbit|bunny|hamster|ferret"
    r"|guinea pig|budgie|parrot|canary|hen|goat|pig|sheepdog|greyhound|whippet|lurcher"
    r"|collie|spaniel|terrier|labrador|retriever|poodle|dachshund|alsatian|husky|pug|axolotl"
    r"|lizard|dragon|snake|gecko|goldfish|fish|pet"
)
_EN_NAME = r"[A-Z][a-z]+"
# A pet or a person named in the old memory.
_EN_NAMED = re.compile(
    rf"\b(?:called|named) (?P<a>{_EN_NAME})(?:,? and (?P<b>{_EN_NAME}))?"
    rf"|\b(?:{_PETS})s?,? (?P<c>{_EN_NAME})(?:,? (?:and )?(?P<d>{_EN_NAME}))?"
    rf"(?:,? and (?P<e>{_EN_NAME}))?\b"
)
_EN_DIED = (
    r"(?:has |had |finally |sadly )?(?:died|passed away|passed on|was put down|was put to"
    r" sleep|had to be put (?:down|to sleep)|has been put (?:down|to sleep))\b"
)
_EN_GONE = re.compile(
    rf"(?:^|[,;:] |\band )(?:{_EN_NAME}'s (?:[a-z\-]+ ){{0,2}})?(?P<n>{_EN_NAME}) {_EN_DIED}"
    rf"|\b(?:buried|scattered) (?:{_EN_NAME}'s )?(?P<m>{_EN_NAME})\b"
)
_EN_SUBJECT_DIED = re.compile(rf"^{_EN_DIED}")
_EN_UNSURE = re.compile(
    r"\b(?:nearly|almost|could have|might|may|if|thought|feared|scared"
    r"|worried|would|will|not|never)\b|n't\b|\?"
    # a way of speaking, no death: "died on stage", "died laughing"
    r"|\bdied (?:on stage|laughing|inside|a (?:little )?death|of (?:embarrass"
    r"\w*|shame|laughter|laughing|boredom|fright|cringe))"
)
_EN_OLD_PAST = re.compile(r"\b(?:died|passed|late|was|were|had|used to|ago|buried|ashes)\b")


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, written in sentences:
        if old:
            if _EN_OLD_PAST.search(written):
                continue
            names = {n for m in _EN_NAMED.finditer(written) for n in m.groups() if n}
            verb = written.split(" ", 1)[0].lower()
            if subject is not None and not (verb.endswith("ed") or verb in lex.EN_PAST_IRREGULAR):
                names.add(subject.capitalize())
            out += [Claim(n.lower(), "gone", "", frozenset({n.lower()}), "there") for n in names]
            continue
        if _EN_UNSURE.search(written):
            continue
        names = {n for m in _EN_GONE.finditer(written) for n in m.groups() if n}
        if subject is not None and _EN_SUBJECT_DIED.match(written):
            names.add(subject)
        out += [Claim(n.lower(), "gone", "", frozenset({n.lower()}), "died") for n in names]
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_PETS = (
    r"猫|犬|柴犬|子猫|子犬|三毛猫|保護猫|保護犬|ウサギ|うさぎ|ハムスター|インコ|亀|カメ"
    r"|金魚|馬|ヤギ"
)
_JA_NAME = r"[\u30a1-\u30faー]{2,8}|[\u3041-\u3096]{2,5}"
_JA_NAMED = re.compile(
    rf"(?P<a>{_JA_NAME})(?:という|って(?:名前の|いう)?)[^、。]{{0,6}}?(?:{_JA_PETS})"
    rf"|(?:{_JA_PETS})の(?P<b>{_JA_NAME})"
    r"|名前は、?(?P<c>[^、。と]{2,8}?)(?:と(?P<d>[^、。]{2,8}?))?(?=[。、！!]|なん|だ|です|$)"
)
# Said of the one named, as the sentence's predicate: not 亡くなった母 (a noun after it: the
# death of another, told as a modifier).
_JA_DIED = (
    r"(?:亡くなっ|死ん|虹の橋を渡っ|天国に行っ|旅立っ|息を引き取っ)"
    r"(?:た|だ|て|で|ちゃっ[たて]|じゃっ[たて])(?![\u3400-\u9fff\u30a1-\u30fa])"
)
_JA_GONE = re.compile(rf"(?:^|の|、)(?P<n>{_JA_NAME})(?:が|は、?)[^。]*?(?:{_JA_DIED})")
_JA_UNSURE = re.compile(r"かも|かと思|そうに|ところ|危な|心配|夢|もし|なら|たら(?!しい)|[?？]")
_JA_OLD_PAST = re.compile(r"亡くな|死ん|虹の橋|だった|昔|以前")


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if old:
            if _JA_OLD_PAST.search(body):
                continue
            names = {n for m in _JA_NAMED.finditer(body) for n in m.groups() if n}
            if subject is not None:
                names.add(subject)
            out += [Claim(n, "gone", "", frozenset({n}), "there") for n in names]
            continue
        if _JA_UNSURE.search(body):
            continue
        names = {m.group("n") for m in _JA_GONE.finditer(body)}
        if (
            subject is not None
            and re.search(_JA_DIED, body)
            and not re.search(r"[がは]", body[: re.search(_JA_DIED, body).start()])
        ):
            names.add(subject)
        out += [Claim(n, "gone", "", frozenset({n}), "died") for n in names]
    return out


# --- the decision --------------------------------------------------------------------------


def gone_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """The names the old memory holds as there now (``old``), or those a note says died."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def gone(was: Claim, now: Claim) -> set[str]:
    """The name the note says died when the old memory holds it as there (else empty)."""
    if was.shape != "there" or now.shape != "died" or was.value != now.value:
        return set()
    return set(now.value)
