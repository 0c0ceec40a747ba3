"""End cues that a negation or a refusal turns into a continuation (pure).

"Florian is not going to quit", "won't ever stop", "quitting is not an option", 辞めるつもりはない:
an end verb under a negation, often through an intention or future frame, says the thing goes
on. :func:`ends_something` reads an end cue only where no such refusal scopes over it;
:func:`without_negated_ends` removes each refused ending with its negation and frame, and that
reading is where every other cue is looked for (a refused ending is no plan, no plan called off
and no negative stance). Texts are as ``text.parse`` normalises them (English lower-case with
"n't" spelt "not", Japanese NFKC). No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex

__all__ = ["ends_something", "stop_cues", "without_negated_ends"]

# A stop verb under negation is a continuation: "is not giving up chess", "will never quit",
# "isn't planning to ever stop", "instead of packing it in", "refused to cancel", "has no plans to
# quit", "quitting is not an option"; 諦めない, やめずに, 辞めるつもりはない,
# やめる気はさらさらない, やめようとは思っていない, 辞める予定はありません, 中止しない. In English
# the negation scopes over the verb through a few words of an intention or future frame ("not
# going to", "not even thinking about"), never across a clause ("did not enjoy it and quit").
_EN_CLAUSE = r"(?!(?:and|but|so|then|because|after|before|when|since|or|until)\b)"
_EN_STOP_NEGATED = re.compile(
    r"(?:\b(?:will|would|shall) )?\b(?:not|never|instead of|rather than|refus\w* to|without"
    r"|no (?:intention|intentions|plans?|desire|wish|interest|thoughts?|way)\b)"
    rf"(?: {_EN_CLAUSE}[\w']+){{0,4}} ?$"
)
# The verb as the subject of a refusal after it: "giving up is not an option".
_EN_STOP_REFUSED = re.compile(
    r"(?: [\w']+){0,3} (?:is|was|are|were) (?:not|never) (?:an? |really )?"
    r"(?:option|on the table|happening|going to happen|in the cards)\b"
)
_EN_STOP_POLARITY = ("no ", "any", "used", "never")  # cues that are negative themselves
# After a Japanese end verb: its negative form, or an intention / thought / plan frame that a
# negation closes within the clause (つもりはない, 気は全くない, ようとは思っていない).
_JA_STOP_NEGATED = re.compile(
    r"(?:し|せ|され|させ|られ)?(?:ない|ず|ません|たくな"
    r"|(?:る|よう)(?:つもり|気|こと|わけ|予定|計画|なんて|とは|と(?:は|も)?(?=思|考))"
    r"[^。、,.!?！？]{0,10}?(?:ない|ません|無い|なし))"
)
# Verbs of calling a plan off that are no end of a state (the transitions read them): their
# negations leave the reading too ("won't skip the race" keeps the plan).
_UNDO_VERBS = {
    "en": r"|\bskip\w*|\bwithdr[ae]w\w*|\bdefer\w*|\bdelay\w*|\bpush(?:ed|es|ing)? back\b",
    "ja": r"|先送り|延ば|保留",
}


def ends_something(text: str, lang: str) -> bool:
    """Whether a memory (as :func:`parse` normalises it) says something stopped or ended: an
    end cue of ``lexicon.STOPPED`` that no negation turns into its opposite."""
    return any(span is None for _, span in stop_cues(text, lang))


def stop_cues(text: str, lang: str) -> list[tuple[re.Match[str], tuple[int, int] | None]]:
    """Each end cue of ``lexicon.STOPPED`` in ``text``, with the span of the negated phrase
    around it when a negation or a refusal turns it into a continuation (None: an ending)."""
    return _stop_cues(text, lang, lex.STOPPED[lang])


def _stop_cues(
    text: str, lang: str, pattern: str
) -> list[tuple[re.Match[str], tuple[int, int] | None]]:
    """Each end cue, with the span of the negated phrase around it when a negation or a
    refusal turns it into a continuation."""
    found = []
    for match in re.finditer(pattern, text):
        cue_text, span = match.group(0), None
        if lang == "ja" and not cue_text.startswith("もう"):
            negation = _JA_STOP_NEGATED.match(text, match.end())
            span = (match.start(), negation.end()) if negation else None
        elif lang == "en" and not cue_text.startswith(_EN_STOP_POLARITY):
            before = _EN_STOP_NEGATED.search(text[: match.start()])
            after = _EN_STOP_REFUSED.match(text, match.end())
            span = (
                (before.start(), match.end())
                if before
                else ((match.start(), after.end()) if after else None)
            )
        found.append((match, span))
    return found


def without_negated_ends(text: str, lang: str) -> str:
    """The text with each negated end cue and its negation and frame removed: the reading
    every cue is looked for in ("is not going to quit" says it goes on, plans nothing and
    ends nothing; a double negative is no negative stance)."""
    for _, span in reversed(_stop_cues(text, lang, lex.STOPPED[lang] + _UNDO_VERBS[lang])):
        if span is not None:
            text = text[: span[0]] + " " + text[span[1] :]
    return text
