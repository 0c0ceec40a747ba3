"""A speaker named once per note: the first mention is the name, later ones a pronoun (pure).

:func:`omoide.engine.consolidate.rewrite.to_third_person` writes each English first-person
mention as both its forms (:func:`mention`); :func:`settle_mentions` then keeps, left to right,
the name for the first mention (unless the note named the speaker before) and the pronoun for
every later one: "they" with its own verb ("they are", "they were", "they love"), "their",
"them", "theirs". The singular "they" guesses no gender from a name. No I/O.
"""

from __future__ import annotations

import re

__all__ = ["PAST_PARTICIPLE_HINT", "mention", "possessive_back", "refer_back", "settle_mentions"]

PAST_PARTICIPLE_HINT = frozenset({"been", "never", "already", "just", "gone", "done", "had"})

# A rewritten first-person mention waits in the text as both its forms until
# settle_mentions knows, left to right, whether the speaker was named before it.
_MENTION = re.compile("\x00([^\x00\x01]*)\x01([^\x00\x02]*)\x02")


def mention(name_form: str, back_form: str) -> str:
    return f"\x00{name_form}\x01{back_form}\x02"


def settle_mentions(text: str, speaker: str, *, named: bool) -> str:
    name = re.compile(rf"(?<![\w'’]){re.escape(speaker)}(?![\w])")
    out: list[str] = []
    last = 0
    for match in _MENTION.finditer(text):
        before = text[last : match.start()]
        out.append(before)
        named = named or name.search(before) is not None
        if named:
            out.append(_capitalise(match.group(2)) if _sentence_start("".join(out))
                       else match.group(2))
        else:
            out.append(match.group(1))
            named = True
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def _sentence_start(before: str) -> bool:
    stripped = before.rstrip(" \"'“‘(")
    return not stripped or stripped[-1] in ".!?"


def _capitalise(word: str) -> str:
    return word[:1].upper() + word[1:]


_BACK_CONTRACTIONS = {"'m": "are", "'re": "are", "'ve": "have", "'ll": "will"}
_BACK_IRREGULAR = {"am": "are", "was": "were", "wasn't": "weren't", "ain't": "aren't"}


def refer_back(match: re.Match[str]) -> str:
    """``I'm really into`` → ``they are really into``; "they" takes the verb as "I" did
    (except "am"/"was"), so nothing is conjugated."""
    contraction = (match.group("contraction") or "").replace("’", "'")
    adverbs = match.group("adverbs") or ""
    verb = match.group("verb")
    tail = f" {verb}" if verb else ""
    if contraction == "'d":
        auxiliary = "had" if verb and verb.lower() in PAST_PARTICIPLE_HINT else "would"
        return f"they {auxiliary}{adverbs}{tail}"
    if contraction:
        return f"they {_BACK_CONTRACTIONS[contraction]}{adverbs}{tail}"
    if verb is None:
        return f"they{adverbs}"
    low = verb.lower().replace("’", "'")
    return f"they{adverbs} {_BACK_IRREGULAR.get(low, verb)}"


def possessive_back(word: str) -> str:
    return "theirs" if word.lower() == "mine" else "their"
