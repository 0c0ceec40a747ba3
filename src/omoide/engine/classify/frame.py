"""The fact inside a reporting frame: what a memory says, not who said it or when (pure).

Memories written by an extractor, or by our own consolidation, often wrap the fact in a
frame: reported speech ("Aiko said she …", "Tom mentioned that …", "According to her
doctor, …", 「…と話していた」「…とのこと」「…によると」) or the date the fact was true
("(as of 2026-03-04)", 「2031年9月時点で」). The frame is neither a change nor a subject: "said"
is a past form but the fact it reports is present ("Aiko said she lives in Kobe" is about where
she lives now, not a finished past occasion), and a frame verb in one memory and not in the
other is no replaced word. :func:`unframe` returns the bare fact, which the rules and the
judge's text features read as they read an unframed memory:

* a speaker who reports about themselves stays the subject: "Aiko said she has never been to
  Kyoto" → "Aiko has never been to Kyoto"; "Aiko said her knee …" → "Aiko's knee …";
* a speaker who reports about something else stays as the topic it is about ("Aiko said the
  new bakery opens at 7" → "Aiko the new bakery opens at 7"), and "According to X, …" drops X;
* a Japanese hearsay or quoting end is dropped (「陽太さんは朝6時に走ると話していた」 →
  「陽太さんは朝6時に走る」), as is a leading 「Xによると、」;
* an "as of" date, in brackets or as a phrase, is dropped.

Nothing else moves: a memory without a frame comes back unchanged. No I/O; deterministic.
"""

from __future__ import annotations

import re
import unicodedata

from omoide.engine.lang import Lang, detect_lang, word_set

__all__ = ["unframe"]

# Verbs that frame a report whatever follows them, and verbs that do only before "that"
# ("reported that …", but "reports to Erin", "shares a flat", "told him to rest more").
_EN_VERB = (
    r"(?:said|says|say|mentioned|mentions|explained|explains|remarked|admitted|admits"
    r"|(?:(?:told|tells) (?:me|us|you|him|her|them)|reported|reports|noted|notes|added|adds"
    r"|confirmed|confirms|shared|shares|stated|states|claimed|claims|wrote|writes)(?=,? that ))"
)
# Who speaks: a name or "my / the user's / X's relation" (at most three words), at the start or
# after a leading phrase ("In March, Aiko said …", "After the surgery, Tom said …").
_EN_SPEAKER = (
    r"(?P<speaker>(?:[A-Z][\w'’-]*|[Mm]y|[Tt]he|[Hh]er|[Hh]is|[Tt]heir)"
    r"(?: [\w'’-]+){0,2}?)"
)
_EN_FRAME = re.compile(
    r"^(?P<lead>(?:[^,]{1,60}, )?)"
    rf"{_EN_SPEAKER} (?:(?:also|once|recently|later|then|has|had|have) )?{_EN_VERB}"
    r"(?:,? that)? "
)
_EN_SUBJECT_PRONOUN = re.compile(r"^(?:he|she|they|I|we)(?:'s|'ve|'d|'ll|'m|'re)? ", re.I)
_EN_CONTRACTED = {
    "'s": " is ",
    "'ve": " have ",
    "'d": " had ",
    "'ll": " will ",
    "'m": " am ",
    "'re": " are ",
}
_EN_MID = re.compile(rf"\b(and|but) {_EN_VERB}(?:,? that)? (?=(?:he|she|they) )")
# A reported clause without "that": a subject, then a finite verb within a few words ("the
# Outback needs …", "Dorothy refuses …"), not an object ("says a few words of Tagalog").
_EN_SUBJECT_START = re.compile(r"^(?:the|a|an|this|these|those|[A-Z])")
_EN_AUX = word_set(
    "is are was were has have had can cannot will would should must does did "
    "can't won't doesn't didn't isn't wasn't"
)
_EN_NOT_BEFORE_VERB = word_set("a an the few many several some of two three four five")


def _is_clause(rest: str) -> bool:
    if not _EN_SUBJECT_START.match(rest):
        return False
    words = rest.split()[:6]
    for i, word in enumerate(words[1:], 1):
        bare = word.strip(",.;").lower()
        if bare in _EN_AUX:
            return True
        if (
            bare.endswith("s")
            and not bare.endswith("ss")
            and len(bare) > 3
            and words[i - 1].lower() not in _EN_NOT_BEFORE_VERB
        ):
            return True
    return False


_EN_POSSESSIVE = re.compile(r"^(?:his|her|their|my|our) ", re.I)
_EN_ACCORDING = re.compile(r"^[Aa]ccording to [^,]{1,60}, |, according to [^,.;]{1,60}(?=[.;]?$)")
_EN_TRAILING = re.compile(
    rf", (?:(?:he|she|they|I|we) {_EN_VERB}|{_EN_VERB} (?:he|she|they))"
    r"(?=[.;]?$)"
)
_EN_AS_OF = re.compile(
    r"\s*\((?:as (?:of|at) [^()]{1,24}|\d{4}-\d{2}(?:-\d{2})?)\)"  # (as of 2026-03), (2026-01)
    r"|,? as (?:of|at) (?:\d{4}-\d{2}(?:-\d{2})?|(?:early |late |mid-)?[A-Z][a-z]+(?: \d{1,2})?"
    r"(?:,? \d{4})?|\d{4}|now|today)"
)
_JA_END = re.compile(
    r"(?:と(?:話して|言って|語って|述べて|書いて|聞いて)(?:いた|いる|いました|います)"
    r"|と(?:話した|言った|語った|述べた|聞いた|話していたという)"
    r"|とのこと(?:だ|です)?|という(?:ことだ|話だ)?"
    r"|(?<=[たるいだ])そう(?:だ|です)|らしい)(?=[。.]?$)"
)
_JA_LEAD = re.compile(r"^[^、。]{1,20}(?:によると|によれば|の話では|いわく)、?")
_JA_AS_OF = re.compile(
    r"[（(][^（）()]{0,16}時点[）)]"
    r"|(?:\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?|\d{1,2}月(?:\d{1,2}日)?)(?:現在|時点)(?:で|の|では)?、?"
)


def unframe(text: str, lang: str = "auto") -> str:
    """The memory with its reporting frame and "as of" dates removed (unchanged if none)."""
    norm = unicodedata.normalize("NFKC", text).strip()
    chosen = Lang(lang) if lang in (Lang.EN, Lang.JA) else detect_lang(norm)
    bare = _unframe_ja(norm) if chosen == Lang.JA else _unframe_en(norm)
    return bare if bare.strip(" 、。.,:;") else norm


def _unframe_en(text: str) -> str:
    original = text.replace("\u2019", "'")
    text = _EN_AS_OF.sub("", text.replace("\u2019", "'"))
    text = _EN_ACCORDING.sub("", text)
    text = _EN_TRAILING.sub("", text)
    text = _EN_MID.sub(r"\1 ", text)
    match = _EN_FRAME.match(text)
    if match is None:
        return text if text == original else _capitalised(text)
    speaker, rest = match.group("speaker"), text[match.end() :]
    pronoun = _EN_SUBJECT_PRONOUN.match(rest)
    if pronoun and pronoun.group(0).lower().startswith(("i ", "i'", "we")):
        speaker = ""  # "My doctor said I should …": the fact is the user's, not the doctor's
    elif pronoun:
        word = pronoun.group(0).strip()
        tail = next((t for c, t in _EN_CONTRACTED.items() if word.lower().endswith(c)), " ")
        rest = tail.lstrip() + rest[pronoun.end() :]
    elif _EN_POSSESSIVE.match(rest):
        speaker, rest = f"{speaker}'s", _EN_POSSESSIVE.sub("", rest)
    elif not match.group(0).endswith("that ") and not _is_clause(rest):
        return text if text == original else _capitalised(text)  # "says a few prayers": no report
    if not speaker:
        return _capitalised(f"{match.group('lead')}{rest}")
    return _capitalised(f"{match.group('lead')}{speaker} {rest}")


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _unframe_ja(text: str) -> str:
    text = _JA_AS_OF.sub("", text)
    text = _JA_LEAD.sub("", text)
    end = _JA_END.search(text)
    if end is not None:
        text = text[: end.start()] + "。"
    return text
