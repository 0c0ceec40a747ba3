"""A change told with both its ends: "changed from A to B", 「AからBに変えた」 (pure).

When the new memory says that something *changed from* a value the old memory states *to* a
value the old memory does not state, the old value is no longer current, whatever else the
two memories say: 「名前は佐藤花子です」 / 「名前が佐藤花子から鈴木花子に変わった」, "The user's
editor is Vim" / "The user switched from Vim to Emacs". The explicit source names the old
fact and the explicit result names its successor, so the change cannot be an origin story
(that would put the old value on the result side) or a second thing of one kind.

``changed_from_old`` is 1 for such a pair: a sure close, not a feature the model reads
(``judge_signals.SURE_ONLY``). It is not read when the change is only planned or wished for, or
when the new memory is about someone else (the judge's subject check). No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.text import Sentence

__all__ = ["FROM_TO_FEATURES", "changed_from_old", "from_to_features"]

FROM_TO_FEATURES: tuple[str, ...] = ("changed_from_old",)

# 「AからBに変わった / 変えた / 変更した / 替えた / 切り替えた / 乗り換えた」: A is the part after
# the last topic, subject or object particle, B the part before に / へ.
_JA = re.compile(
    r"(?P<src>[^、。，．はがをにで]{1,15}?)から(?P<dst>[^、。，．はがを]{1,15}?)"
    r"(?:に|へ)(?:変わ|変え|変更|替え|切り替え|切りかえ|乗り換え|乗りかえ)"
)
# "changed / switched / converted / went … from A to B" (``Sentence.text`` is lower case in
# English): A up to " to ", B its first word.
_EN = re.compile(
    r"\b(?:changed|switched|converted|went)\b[^.;]{0,30}?\bfrom "
    r"(?:(?:a|an|the|her|his|their|my|our) )?(?P<src>[\w'\- ]{1,30}?) to "
    r"(?:(?:a|an|the|her|his|their|my|our) )?(?P<dst>[\w'\-]+)"
)
# A change not (yet) made: planned, wished for, considered, possible.
_NOT_MADE = re.compile(
    r"予定|つもり|たい|かもしれ|検討|考えて|\bplan|\bwill\b|\bmight\b"
    r"|\bconsider|\bthinking\b|\bwants? to\b|\bmay\b|\bwould\b"
)


def changed_from_old(old: Sentence, new: Sentence) -> bool:
    """Whether ``new`` tells a change from a value ``old`` states to one it does not."""
    if _NOT_MADE.search(new.text):
        return False
    old_text = old.text.lower()
    for pattern in (_JA, _EN):
        for match in pattern.finditer(new.text):
            src, dst = match.group("src").strip(), match.group("dst").strip()
            if (
                src
                and dst
                and src != dst
                and not src.isdigit()
                and _says(old_text, src.lower())
                and not _says(old_text, dst.lower())
            ):
                return True
    return False


def _says(text: str, phrase: str) -> bool:
    """Whether ``text`` holds ``phrase``: as whole words for Latin script, as a substring
    otherwise (Japanese has no spaces between words)."""
    if phrase.isascii():
        return re.search(rf"\b{re.escape(phrase)}\b", text) is not None
    return phrase in text


def from_to_features(old: Sentence, new: Sentence) -> list[float]:
    """``FROM_TO_FEATURES`` for one pair."""
    return [float(changed_from_old(old, new))]
