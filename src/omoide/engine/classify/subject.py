"""Whose fact, and what a change cue is about: subject chains and cue clauses (pure).

Two questions a false CONTRADICTORY often gets wrong on a new writer's text:

* **Are the two memories about the same subject?** "Hayashi's wife is a nurse" and "Hayashi's
  former boss became a bank director" share a person and a predicate shape but talk about two
  people. The *subject chain* of a memory is its leading possessor chain (English: a name or
  noun with its ``'s`` links, "grace's husband"; Japanese: the words before the first topic or
  subject particle, split at の, honorifics dropped: 林さんの妻は → 林 / 妻; the user is a root).
  Two features for the judge: the chains are the same, or they name another subject (two roots
  neither memory mentions in the other, another person under the same root, or a person added
  to the other chain: the user / the user's husband). A chain that adds a thing ("Misaki" /
  "Misaki's fee") is neither: it may be the same person's attribute.
* **Is an end or change cue about the old memory's fact?** "takes the bus because his licence
  isn't valid anymore" holds an end cue about the licence, not about the bus. A cue counts only
  when the clause around it (English: between commas and subordinators; Japanese: between
  commas and clause-joining particles, and for a cue that modifies the noun after it, 亡くなった夫,
  that noun) holds one of the old memory's topic units other than its subject.

No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.signals import anchors
from omoide.engine.classify.text import Sentence
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = [
    "JA_USER_WORDS",
    "NAMED_SUBJECT_FEATURES",
    "PEOPLE_APART_FEATURES",
    "SUBJECT_FEATURES",
    "cue_about_old",
    "cue_clauses",
    "named_subject_features",
    "new_person_in_subject",
    "other_person_alone",
    "people_apart_features",
    "subject_chain",
    "subject_features",
    "subject_named_before",
    "two_people_apart",
]

SUBJECT_FEATURES: tuple[str, ...] = ("subject_same", "subject_differs", "other_person_alone")
# Apart from SUBJECT_FEATURES: the judge does not weigh it (``judge_signals.EXTEND_ONLY``).
NAMED_SUBJECT_FEATURES: tuple[str, ...] = ("new_subject_named",)
# Apart too: a veto the judge does not weigh (``judge_signals.VETO_ONLY``).
PEOPLE_APART_FEATURES: tuple[str, ...] = ("two_people_apart",)

_EN_DETERMINERS = frozenset({"the", "my", "his", "her", "their", "our", "a", "an", "your"})
_EN_POSSESSIVES = frozenset({"my", "his", "her", "their", "our", "your"})
_EN_PRONOUNS = frozenset({"he", "she", "they", "it", "i", "we", "you", "this", "that", "there"})
_EN_MODIFIERS = r"(?:former|ex|late|old|new|younger|older|elder|little|big|best)\s+"
_EN_CHAIN = re.compile(
    rf"^((?:[a-z]+\s+)?[a-z]+)((?:['’]s\s+(?:{_EN_MODIFIERS})?[a-z]+(?:-[a-z]+)*)*)"
)
# The chain holds lemmas ("wife" → "wif"), so a person word is looked up as written and as its
# lemma; a hyphenated relation by its parts ("ex-wife", "mother-in-law").
_EN_PERSON_UNITS = frozenset(
    lex.EN_PERSONS
    | lex.EN_CHAIN_PERSONS
    | {en_lemma(w) for w in lex.EN_PERSONS | lex.EN_CHAIN_PERSONS}
)
_JA_PERSON_UNITS = lex.JA_PERSONS + lex.JA_CHAIN_PERSONS
# Commas are no clause break: an apposition ("Luna, the user's cat, died") keeps its subject.
_EN_CLAUSE_BREAK = re.compile(
    r"[;:()]|\s(?:because|since|when|while|after|before|until|although|though|but|and"
    r"|who|whose|which|where|if)\s"
)
# A time or place phrase before the subject ("In March 2026, Kenta …", "Since the move, …",
# 2026年2月時点で、健太さんは…, 去年の冬、林さんは…): the chain starts after it.
_EN_LEADING_ADVERBIAL = re.compile(
    r"^(?:in|on|at|as of|since|after|before|during|by|from|until|last|this|next|back in"
    r"|earlier|lately|recently|now|today|yesterday|currently)\b[^,]{0,40},\s*"
)
# (Japanese: only a phrase with a time in it, since a bare "X、" is often the topic itself.)
_JA_LEADING_ADVERBIAL = re.compile(
    r"^[^。はが、]{0,16}(?:\d|[年月日週春夏秋冬]|時点|現在|当時|最近|以前|頃|ごろ)[^。はが、]{0,8}、"
)
# The topic or subject particle; も ("X too") when no kana follows it (子どもは is one word).
_JA_TOPIC = re.compile(r"^(.{1,20}?)(?:は|が|も(?![ぁ-ん]))")
# A note's label: "沢口さん：減塩中" is about 沢口さん.
_JA_LABEL = re.compile(r"^([^：:。、はが]{1,12})[：:]")
_JA_HONORIFIC = re.compile(r"さん|ちゃん|くん|君|様|氏")
# A Japanese comma often follows a time word inside one clause (先月、亡くなった): no break.
_JA_CLAUSE_BREAK = re.compile(r"[。()（）]|ので|のに|けど|けれど|ため(?:に)?|から、|て、")
_JA_NOUN_AFTER = re.compile(r"[\u3400-\u9fff々\u30a0-\u30ff]{1,6}")
_JA_INFLECTION = re.compile(r"[ったるいてでしま]*")


def subject_chain(sentence: Sentence) -> tuple[str, ...]:
    """The memory's leading possessor chain, root first; empty when unknown (a pronoun, the
    user, or no recognisable subject)."""
    text = sentence.text.strip()
    if sentence.lang == "ja":
        text = _JA_LEADING_ADVERBIAL.sub("", text, count=1)
        m = _JA_LABEL.match(text) or _JA_TOPIC.match(text)
        if m is None or re.search(r"[をにで、]", m.group(1)):
            return ()
        parts = [_JA_HONORIFIC.sub("", p).strip() for p in m.group(1).split("の")]
        parts = [p for p in parts if p]
        if parts and parts[0] in ("ユーザー", "私", "わたし", "僕"):
            parts[0] = "user"
        elif (
            parts
            and m.group()[-1] in "はも"  # a topic: not 友人が…ので、ユーザーは
            and any(p == parts[0] + h for p in _JA_PERSON_UNITS for h in ("", "さん"))
        ):
            parts.insert(0, "user")  # 妹のマイは: the user's sister
        return tuple(parts)
    m = _EN_CHAIN.match(_EN_LEADING_ADVERBIAL.sub("", text, count=1))
    if m is None:
        return ()
    root = m.group(1).split()
    if len(root) == 2 and root[0] not in _EN_DETERMINERS:
        root = root[:1]  # "tiago wants": the name alone
    if root[-1] in _EN_PRONOUNS or (root[-1] in FACT_TOPIC_STOPWORDS and root[-1] != "user"):
        return ()
    links = [w for w in re.split(r"['’]s\s+", m.group(2)) if w.strip()]
    chain = (en_lemma(root[-1]), *(_en_link(w.split()) for w in links))
    if root[0] in _EN_POSSESSIVES and _is_person(chain[0], "en"):
        return ("user", *chain)  # "her brother tom …", "my dad …": the user's relation
    return chain


def _en_link(words: list[str]) -> str:
    """One link of an English chain, as a lemma: its head noun ("former coach" → coach), or
    "ex" when the ex is named rather than described ("Marcus's ex Aisha")."""
    if words[0] == "ex" and len(words) > 1 and not _is_person(words[-1], "en"):
        return "ex"
    return en_lemma(words[-1])


def subject_features(old: Sentence, new: Sentence) -> list[float]:
    """The SUBJECT_FEATURES row: [same chain, another subject, another person's own fact
    (``other_person_alone``)]. Another subject: two roots
    neither memory mentions in the other (two people named apart), or under one root a
    different person (X's wife / X's former boss), or one chain that adds a person to the other
    (the user / the user's husband). A chain that adds a thing (X / X's fee) is neither."""
    return [*_same_or_differs(old, new), float(other_person_alone(old, new))]


def _same_or_differs(old: Sentence, new: Sentence) -> list[float]:
    a, b = subject_chain(old), subject_chain(new)
    if not a or not b:
        return [0.0, 0.0]
    if a == b:
        return [1.0, 0.0]
    if a[0] != b[0]:
        apart = not _mentions(new, a[0]) and not _mentions(old, b[0])
        return [0.0, float(apart)]
    for x, y in zip(a[1:], b[1:], strict=False):
        if x != y:
            return [0.0, float(_is_person(x, old.lang) or _is_person(y, old.lang))]
    extra = (a if len(a) > len(b) else b)[min(len(a), len(b))]
    return [0.0, float(_is_person(extra, old.lang))]


# Words by which a memory about another person refers back to the chain's root (the user or
# the person named first): "Grace's doctor raised *her* dose", ユーザーの妻は*ユーザー*と….
_EN_BACK = re.compile(r"\b(?:her|his|him|their|them|the user|user|us|we|our|my|me|together)\b")
_JA_BACK = re.compile(r"ユーザー|一緒|彼女|彼|私|自分|代わりに|ために")


def other_person_alone(old: Sentence, new: Sentence) -> bool:
    """The new memory is about another person in the old one's circle (a person added to the
    old memory's chain: the user / the user's ex-colleague, Marcus / Marcus's ex) and says
    nothing back about the old memory's subject: that person's own fact, told beside the old
    one ("The user's ex-colleague opened an office"), not a change of it ("The user's landlord
    put *her* rent up") nor news of someone the old memory names ("has a dog and a tortoise" /
    "The user's tortoise died")."""
    a, b = subject_chain(old), subject_chain(new)
    if not a or len(b) <= len(a) or b[: len(a)] != a or not _is_person(b[len(a)], new.lang):
        return False
    if _mentions(old, b[len(a)]):
        return False  # a person the old memory holds ("has a dog and a tortoise" / "'s tortoise")
    text = new.text
    if new.lang == "ja":
        m = _JA_TOPIC.match(_JA_LEADING_ADVERBIAL.sub("", text, count=1))
        rest = text[m.end() :] if m else text
        root = a[0] if a[0] != "user" else "ユーザー"
        return _JA_BACK.search(rest) is None and root not in rest
    m = _EN_CHAIN.match(_EN_LEADING_ADVERBIAL.sub("", text, count=1))
    rest = text[m.end() :] if m else text
    root = a[0]
    return _EN_BACK.search(rest) is None and root not in {
        en_lemma(w) for w in re.findall(r"[a-z]+", rest)
    }


def new_person_in_subject(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory's subject names a person (or pet) the old memory's subject does
    not ("Her brother Tom …" / "The user …", ユーザーの父は… / ユーザーは…)."""
    a = subject_chain(old)
    return any(u not in a and _is_person(u, new.lang) for u in subject_chain(new))


def subject_named_before(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is about a thing the old memory names: its subject chain is not
    the old one's, and every link of it but the user is named in the old memory ("The user has
    a rowing boat" / "The boat is moored at Kew"; "The user has a parrot called Pepper" /
    "Pepper says hello to everyone"; 毎晩日記を書いている / 日記は五年日記帳に書いている).
    Not when the chain's last link is a person word (the user / the user's *sister*: another
    person's own fact), nor when it is the user's and the old one another person's ("Ana's
    favourite typeface" / "The user's favourite typeface"), nor when it is the old chain with links
    left out ("Ana's piano teacher …" / "Ana …": back to the person, another fact of theirs;
    ユーザーの前のスマホ / ユーザーのスマホ: another one). Such a new memory tells more of
    what the old one holds; the judge, reading wording, called many of them INDEPENDENT on
    writers it was not fitted on (``bench/results/classify_ext32.md``)."""
    a, b = subject_chain(old), subject_chain(new)
    links = [u for u in b if u != "user"]
    if not links or a == b or _is_person(b[-1], new.lang):
        return False
    if b[0] == "user" and a and a[0] != "user":
        return False  # the user's own fact beside another person's ("Ana's …" / "The user's …")
    if len(b) < len(a) and _within(b, a):
        return False
    return all(_mentions(old, u) and (old.lang == "en" or len(u) >= 2) for u in links)


def _within(short: tuple[str, ...], chain: tuple[str, ...]) -> bool:
    """Whether ``short`` is ``chain`` with links left out, in order (user / 前 / スマホ and
    user / スマホ; ana / teacher and ana)."""
    rest = iter(chain)
    return all(link in rest for link in short)


def named_subject_features(old: Sentence, new: Sentence) -> list[float]:
    """The NAMED_SUBJECT_FEATURES row of one pair (``subject_named_before``)."""
    return [float(subject_named_before(old, new))]


def _mentions(sentence: Sentence, unit: str) -> bool:
    if unit == "user":
        return True  # the user is in every memory, named or not
    return unit in sentence.text if sentence.lang == "ja" else unit in sentence.words


def _is_person(unit: str, lang: str) -> bool:
    """Whether a chain unit names a person (or a pet): a relation word, as written or as its
    lemma, or a hyphenated relation with one ("ex-wife", "mother-in-law")."""
    if lang == "ja":  # (an honorific was dropped from the unit: 奥さん → 奥, 赤ちゃん → 赤)
        return any(p in unit + h for p in _JA_PERSON_UNITS for h in ("", "さん", "ちゃん"))
    return any(
        part in _EN_PERSON_UNITS or part.rstrip("s") in _EN_PERSON_UNITS for part in unit.split("-")
    )


def _person(sentence: Sentence) -> str:
    """The old memory's subject when it is a person named bare (English: a leading word with
    no determiner, "kwame takes"; Japanese: a name with an honorific, 吉田さんは), else ""."""
    chain = subject_chain(sentence)
    if not chain:
        return ""
    if sentence.lang == "ja":
        return (
            chain[0]
            if re.match(rf"{re.escape(chain[0])}(?:{_JA_HONORIFIC.pattern})", sentence.text)
            else ""
        )
    return "" if sentence.text.split()[0] in _EN_DETERMINERS else chain[0]


def cue_clauses(pattern: str, sentence: Sentence) -> list[str]:
    """For each match of ``pattern`` in the sentence, the text the cue is about: the clause
    around it, or (Japanese) the noun a cue modifies when a noun follows it directly."""
    text, out = sentence.text, []
    breaks = _JA_CLAUSE_BREAK if sentence.lang == "ja" else _EN_CLAUSE_BREAK
    cuts = [0, *(x for m in breaks.finditer(text) for x in (m.start(), m.end())), len(text)]
    for m in re.finditer(pattern, text):
        if sentence.lang == "ja":
            tail = text[m.end() :]
            ending = _JA_INFLECTION.match(tail)
            inflection = ending.group() if ending else ""
            noun = _JA_NOUN_AFTER.match(tail[len(inflection) :])
            if noun is not None and inflection.endswith(("た", "る")):
                out.append(noun.group())
                continue
        start = max(c for c in cuts if c <= m.start())
        end = min(c for c in cuts if c >= m.end())
        out.append(text[start:end])
    return out


def cue_about_old(pattern: str, old: Sentence, new: Sentence) -> bool:
    """Whether a cue (``pattern``) in the new memory is about the old memory's fact: the text
    it is about holds a topic unit the two share that is not the old memory's subject."""
    person = _person(old)
    shared = [
        u
        for u in anchors(old, new)
        if u != person and not (new.lang == "ja" and person and (u in person or person in u))
    ]
    if not shared:
        return False
    for clause in cue_clauses(pattern, new):
        if new.lang == "ja":
            if any(u in clause for u in shared):
                return True
        elif {en_lemma(w) for w in re.findall(r"[a-z]+", clause)} & set(shared):
            return True
    return False


# The user named in a memory: the word, or the first person ("I", 私).
_EN_USER_WORDS = re.compile(r"\b(?:user|i|my|me|mine|we|our|us)\b")
JA_USER_WORDS = re.compile(r"ユーザー|私|わたし|僕|俺|自分")
# A Japanese clause joined to the next: the later clause's subject is left unsaid, so the first
# clause's subject is not the whole memory's (息子さんが免許を取ったので、送りは終わった).
_JA_JOINED = re.compile(r"ので|のに|けど|けれど|ため|から、|て、")
# An English memory opened by a name and its verb, as written: "Tom started …", "Ellen repairs …".
_EN_NAMED = re.compile(r"^([A-Z][a-z]+)\s+([a-z]+)\b")


def _en_name(raw: str) -> str:
    """The name an English memory opens with, lower-cased, or "": a capitalised word that is
    no verb form itself (a note without a subject opens with its verb: "Uses Poetry …",
    "Been seeing …") followed by a verb form ("started", "repairs", "is", "bought")."""
    m = _EN_NAMED.match(raw.strip())
    if m is None:
        return ""
    name, verb = m.group(1).lower(), m.group(2)
    if name in FACT_TOPIC_STOPWORDS or name in lex.EN_IRREGULAR or _verb_form(name):
        return ""
    return name if _verb_form(verb) or verb in lex.EN_IRREGULAR else ""


def _verb_form(word: str) -> bool:
    """-ing, -ed, a third-person -s, or an irregular past."""
    return (
        word.endswith(("ing", "ed"))
        or word in lex.EN_PAST_IRREGULAR
        or (word.endswith("s") and not word.endswith("ss"))
    )


def _own_person(raw: str, sentence: Sentence) -> str:
    """Whose own fact the memory is, when its subject chain is one person alone: "user", or a
    person named (English: :func:`_en_name`; Japanese: a name with an honorific,
    :func:`_person`, in a memory of one clause); else "" (a relation, a thing, or no subject)."""
    chain = subject_chain(sentence)
    if len(chain) != 1:
        return ""
    if chain[0] == "user":
        return "user"
    if sentence.lang == "ja":
        return "" if _JA_JOINED.search(sentence.text) else _person(sentence)
    return _en_name(raw)


def _names(sentence: Sentence, person: str) -> bool:
    """Whether the memory names ``person`` anywhere (the user: the word or the first person)."""
    if person == "user":
        words = JA_USER_WORDS if sentence.lang == "ja" else _EN_USER_WORDS
        return words.search(sentence.text) is not None
    if sentence.lang == "ja":
        return person in sentence.text
    return re.search(rf"\b{re.escape(person)}", sentence.text) is not None


def two_people_apart(old: str, new: str, old_s: Sentence, new_s: Sentence) -> bool:
    """Whether the two memories (as written, and read) are two people's own facts: each one's
    subject is one person alone (the user, or a person named), the two differ, and neither
    memory names the other's person. A fact about one person does not change a fact about
    another ("Quentin bought a 2011 Corolla" / "The user drives a 2012 Corolla"; "Tom eats fish
    again" / "Sophie avoids raw fish"), however alike the rest; within a persona's store such a
    pair is two neighbours of one topic, and a close there hides a true fact."""
    a, b = _own_person(old, old_s), _own_person(new, new_s)
    return bool(a and b and a != b and not _names(new_s, a) and not _names(old_s, b))


def people_apart_features(old: str, new: str, old_s: Sentence, new_s: Sentence) -> list[float]:
    """The PEOPLE_APART_FEATURES row of one pair (``two_people_apart``)."""
    return [float(two_people_apart(old, new, old_s, new_s))]
