"""Two parts of a near-copy that changed places: "prefers A to B" / "prefers B to A" (pure).

Trigger: dedup asks whether a near-copy above the threshold is a duplicate. Why: a statement
whose two parts trade places around a word holds the same words, so its embedding, the value
readers and the aligned difference all see (almost) nothing; yet 夏より冬が好き / 冬より夏が好き,
"moved from Osaka to Kyoto" / "from Kyoto to Osaka" and "3 days on, 4 off" / "4 days on, 3 off"
say opposite things. Outcome: the two parts and the words between them, or None.

Free word order is not reported: a swap around a coordinator ("tea and coffee" / "coffee and
tea", 猫と犬 / 犬と猫) or a copula ("X's wife is Mei" / "Mei is X's wife"), two English
phrases that both open with a preposition (adjuncts: "on weekends … in the hills"), a phrase
moved from one end of the difference to the other, clauses or long phrases moved ("back home
in Lyon my parents run a café" / "my parents run a café in Lyon, back home"), and
Japanese parts that carry their own role particle (毎朝 / ユーザーは: the particle moves with
the part, so the roles stay). A trade of bare parts while the particles stay where they were
(兄が弟を / 弟が兄を, 夏より冬 / 冬より夏) is reported, also around a contrast whose words
between carry what both parts share (白炭ではなく黒炭 / 黒炭ではなく白炭), and so are two English
values that each follow the same preposition and trade places between two coordinated
holders ("a laptop for work and a PC for gaming" / "a laptop for gaming and a PC for work",
"maths on Mondays and art on Fridays" / "maths on Fridays and art on Mondays": each holder's
value changed); with no other holder between them ("for work and for gaming") their order
stays free. Some swaps
that keep the meaning are reported too (a symmetric verb: "Ken met Yumi" / "Yumi met Ken"): a
kept restatement costs a link, a dropped change a fact.
Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_judge import notation_tokens

__all__ = ["swapped_parts"]

_MAX_MIDDLE = 80  # tokens left once the common start and end are set aside
_EN_COORDINATORS = frozenset({"and", "or", "&", "plus", "nor"})
_EN_COPULA = frozenset({"is", "are", "was", "were", "am", "be", "been"})
_EN_PREPOSITIONS = frozenset(
    {
        "on",
        "in",
        "at",
        "with",
        "for",
        "from",
        "to",
        "by",
        "before",
        "after",
        "during",
        "since",
        "until",
        "near",
        "into",
        "onto",
        "about",
        "around",
        "over",
        "under",
        "without",
        "every",
    }
)
_EN_ARTICLES = frozenset({"a", "an", "the", "my", "his", "her", "their", "our", "your"})
_RESPECTIVE_BETWEEN = 7  # "and a Linux desktop for": the coordinator, the other holder, the word
_JA_COORDINATORS = re.compile(r"[とや及]|または|又は")
_JA_ROLE_PARTICLES = ("は", "が", "を", "に", "で", "へ", "も")
# (longest part, longest words between): a trade is of two short values around a short
# relation ("tea" to "coffee", 夏 より 冬, 普通の ヨガより ホット), in words / characters
_SHORT_EN = (3, 3)
_SHORT_JA = (8, 4)
# A Japanese contrast between the two parts ("A ではなく B": B, not A) may carry what both parts
# share (白炭ではなく黒炭: 炭), so its words between may be longer.
_JA_CONTRAST = re.compile(r"(?:では|じゃ|で)なく")
_SHORT_JA_CONTRAST = 8
# Two short values in two clauses: the words between join the clauses ("allergic to latex, so
# they wear nitrile gloves") or, in Japanese, hold the second clause's own holder with its
# particle (弁護士が5人、事務員が3人: 事務員が; 普段は眼鏡だが、法廷ではコンタクト: 法廷では), so
# each clause's value changed (round 22: three writers' sets). Longest words between.
_EN_CLAUSE_WORDS = frozenset(
    {"so", "but", "while", "whereas", "because", "though", "although", "yet"}
)
_JA_HOLDER = re.compile(r"[\u4e00-\u9fff\u30a1-\u30fa\u30fc](?:では|には|が|は)")
_ACROSS_CLAUSES = (10, 12)


def _free_order(part: list[str], between: list[str], other: list[str], sep: str) -> bool:
    """The two parts may trade places without changing what is said (module docstring)."""
    short = _SHORT_EN if sep else _SHORT_JA
    if (
        max(len(part), len(other)) <= short[0]
        and not _coordinated(between, sep)
        and _across_clauses(between, sep)
    ):
        return False
    longest_between = short[1]
    if not sep and _JA_CONTRAST.search("".join(between)):
        longest_between = _SHORT_JA_CONTRAST
    if max(len(part), len(other)) > short[0] or len(between) > longest_between:
        return True  # clauses or phrases moved, not two values around one relation word
    if _coordinated(between, sep):
        return True
    if sep:
        return all(word in _EN_COPULA for word in between) or (
            part[0] in _EN_PREPOSITIONS and other[0] in _EN_PREPOSITIONS
        )
    return "".join(part).endswith(_JA_ROLE_PARTICLES) or "".join(other).endswith(_JA_ROLE_PARTICLES)


def _direction(before: list[str], between: list[str]) -> bool:
    """ "from A to B" / "from B to A", whatever the length of A and B ("from the site to the lab
    in town" and back): a direction turned round. The articles both parts open with may sit
    in the common start ("from the") and after "to"."""
    k = len(before) - 1
    while k >= 0 and before[k] in _EN_ARTICLES:
        k -= 1
    return (
        k >= 0
        and before[k] == "from"
        and bool(between)
        and between[0] == "to"
        and all(word in _EN_ARTICLES for word in between[1:])
    )


def _across_clauses(between: list[str], sep: str) -> bool:
    """The words between two short values join two clauses, each with its own value (see
    ``_EN_CLAUSE_WORDS``): "latex so they always wear nitrile", 人事務員が."""
    if sep:
        return len(between) <= _ACROSS_CLAUSES[0] and any(
            word in _EN_CLAUSE_WORDS for word in between
        )
    return len(between) <= _ACROSS_CLAUSES[1] and _JA_HOLDER.search("".join(between)) is not None


def _respective(
    before: str, part: list[str], between: list[str], other: list[str], sep: str
) -> bool:
    """Two English values, each after the same preposition, traded between two coordinated
    holders: "a laptop for work and a PC for gaming" / "a laptop for gaming and a PC for
    work" (each holder has its own value: the assignment changed). The holders must differ
    ("for work and for gaming" has one, and its order is free)."""
    if not sep or before not in _EN_PREPOSITIONS or not between or between[-1] != before:
        return False
    if max(len(part), len(other)) > _SHORT_EN[0] or len(between) > _RESPECTIVE_BETWEEN:
        return False
    holder = between[:-1]
    return any(word in _EN_COORDINATORS for word in holder) and any(
        word not in _EN_COORDINATORS | _EN_ARTICLES | {before} for word in holder
    )


def _coordinated(between: list[str], sep: str) -> bool:
    """The parts are joined by "and", "or", と, や … (or nothing): a list, whose order is free.
    The words between may also hold what both parts share ("hot tea and iced tea")."""
    if not between:
        return True
    if sep:
        return any(word in _EN_COORDINATORS for word in between)
    return bool(_JA_COORDINATORS.search("".join(between)))


def swapped_parts(first: str, second: str) -> tuple[str, str, str] | None:
    """(part, words between, other part) when ``second`` is ``first`` with two parts traded
    around words other than a coordinator, else None."""
    a, b, sep = notation_tokens(first, second)
    if a == b or sorted(a) != sorted(b):
        return None
    start = 0
    while a[start] == b[start]:
        start += 1
    end = 0
    while a[-1 - end] == b[-1 - end]:
        end += 1
    mid_a, mid_b = a[start : len(a) - end], b[start : len(b) - end]
    n = len(mid_a)
    if n > _MAX_MIDDLE or any(mid_a[k:] + mid_a[:k] == mid_b for k in range(1, n)):
        return None  # too long to read, or a phrase moved from one end to the other
    for x in range(1, n):
        if mid_a[:x] != mid_b[n - x :]:
            continue
        for y in range(1, n - x + 1):
            between = mid_a[x : n - y]
            part, other = mid_a[:x], mid_a[n - y :]
            traded = other == mid_b[:y] and between == mid_b[y : n - x] and part != other
            if traded and sep and _direction(a[:start], between):
                return sep.join(part), sep.join(between), sep.join(other)
            if traded and (
                not _free_order(part, between, other, sep)
                or _respective(a[start - 1] if start else "", part, between, other, sep)
            ):
                return sep.join(part), sep.join(between), sep.join(other)
    return None
