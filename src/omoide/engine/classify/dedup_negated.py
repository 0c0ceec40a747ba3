"""Dedup's notation across a pair: a negation in one text said with a word of the opposite
meaning in the other (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring; sixteenth round). Trigger: a
near-copy that says "does not like" where the other says "dislikes", "does not open" / "is
closed", "is not married" / "is single", "does not smoke" / "is a non-smoker", 好きではない /
嫌い, 得意ではない / 苦手, 結婚していない / 独身. Why: the veto read a negation on one side
only as a polarity turned round, and the judge rarely overrules that. Outcome: both texts'
phrases written as one form, only where one text holds the negated phrase and the other the
word of opposite meaning (so "likes" / "does not like" and "likes" / "dislikes" stay what
they were: changes). The table is general language: a verb and its negative-meaning
counterpart. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["negated_otherwise"]

_EN_AUX = r"\b(?:does|do|did|am|is|are|was|were|will|would)\s+not\s+"
# (the word of opposite meaning, the negated phrase, the form both are written as)
_PAIRS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "en": (
        (r"\bdislik(?:es|ed|e)\b", _EN_AUX + r"(?:like|enjoy)\b", "dislikes"),
        (r"\bavoid(?:s|ed)?\b", _EN_AUX + r"(?:eat|drink|have|take|touch)\b", "avoids"),
        (r"\b(?:is|are|was|were) closed\b", _EN_AUX + r"open\b", "is closed"),
        (r"\b(?:am|is|are|was|were) (?:single|unmarried)\b", _EN_AUX + r"married\b", "is single"),
        (r"\bnon-?smoker\b", _EN_AUX + r"smoke\b", "non-smoker"),
        (
            r"\b(?:sober|teetotal|tee-total)\b",
            _EN_AUX + r"drink(?: alcohol)?\b|\b(?:has|have|had) not (?:had a drink|had alcohol"
            r"|had any alcohol|drunk alcohol|had a drop)\b",
            "sober",
        ),
        (r"\bintolerant\b|\bintolerance\b", r"\bcannot tolerate\b", "intolerant"),
        (r"\bdisagree(?:s|d)?\b", _EN_AUX + r"agree\b", "disagrees"),
        (r"\bforg(?:ets|ot|otten)\b", _EN_AUX + r"remember\b|\bcannot remember\b", "forgets"),
        (r"\b(?:is|are|was|were) absent\b", _EN_AUX + r"(?:present|attend)\b", "is absent"),
        (r"\bunable to\b", r"\bcannot\b", "cannot"),
    ),
    "ja": (
        (r"嫌い", r"好きで(?:は)?ない|好きじゃない|好きでは(?:ありません)", "嫌い"),
        (r"苦手", r"(?:得意|上手)で(?:は)?ない|(?:得意|上手)じゃない", "苦手"),
        (r"独身", r"結婚していない|結婚してない", "独身"),
        (r"非喫煙者", r"(?:たばこ|タバコ|煙草)(?:は|を)?吸わない|喫煙しない", "非喫煙者"),
        (r"平気", r"怖がらない|怖くない", "平気"),
        (r"休み|定休", r"営業していない|開いていない|営業しない|開かない", "休み"),
        (r"抜いている|抜く", r"食べない", "抜いている"),
        (r"ダメ|だめ|無理", r"食べられない|飲めない", "ダメ"),
    ),
}
_COMPILED = {
    lang: tuple(
        (re.compile(p, re.IGNORECASE), re.compile(n, re.IGNORECASE), form) for p, n, form in pairs
    )
    for lang, pairs in _PAIRS.items()
}


def negated_otherwise(first: str, second: str, lang: str) -> tuple[str, str]:
    """``first`` and ``second`` with a negated phrase of one and the word of opposite meaning
    of the other written as one form (``lang``: "en" or "ja")."""
    texts = [first, second]
    for positive, negated, form in _COMPILED[lang]:
        for i, j in ((0, 1), (1, 0)):
            one, other = texts[i], texts[j]
            if (
                positive.search(one)
                and negated.search(other)
                and not positive.search(other)
                and not negated.search(one)
            ):
                texts[i], texts[j] = positive.sub(form, one), negated.sub(form, other)
                break
    return texts[0], texts[1]
