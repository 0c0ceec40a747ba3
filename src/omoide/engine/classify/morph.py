"""English lemmas by suffix rules, shared by the classifier's text and quantity readers (pure)."""

from __future__ import annotations

from omoide.engine.classify.lexicon import EN_IRREGULAR

__all__ = ["en_lemma"]


def en_lemma(word: str) -> str:
    """A crude lemma: irregular forms by table, then -ies/-es/-s/-ing/-ed/-ly suffix rules.

    Only consistency matters (both memories go through the same rules), so "moved",
    "moves" and "moving" all become "mov".
    """
    word = word.removesuffix("'s")
    if word in EN_IRREGULAR:
        return EN_IRREGULAR[word]
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith(("ies", "ied")):
        return word[:-3] + "i"
    if word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    elif word.endswith("ing") and len(word) > 5:
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) > 4:
        word = _undouble(word[:-2])
    elif word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("y") and len(word) > 3 and word[-2] not in "aeiou":
        return word[:-1] + "i"  # study, studies, studied all meet at "studi"
    return word.removesuffix("e") if len(word) > 3 else word


def _undouble(stem: str) -> str:
    """stopp → stop, runn → run (but keep "ll", "ss": call, miss)."""
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsaeiou":
        return stem[:-1]
    return stem
