"""English subject–verb agreement when a name replaces "I" or "you" (pure, offline).

"I love" becomes "Nora loves", "I'm into" "Nora is into", "I've sunk" "Nora has sunk", "I'd
gone" "Nora had gone", "I wanna" "Nora wants to". After "I", which is always a subject, the
common verbs come from a list and any other word is conjugated unless it reads as a past form,
participle, adverb or linking word. "You" is also an object ("I wish you luck"), so after it
only the listed verbs are conjugated, and any word only where "you" opens a clause (the
sentence's start, after a comma or after "when", "and", "that" …: "When you finish" → "When
Sam finishes"). An auxiliary that stands before the subject agrees with it too ("Do you
watch" → "Does Sam watch", "Have you been" → "Has Sam been", "Are you" → "Is Sam"); a modal
keeps its bare verb ("what can I add"). A second verb that "and", "or" or "but" joins to the
speaker's clause shares its subject and agrees too ("I go to Boston and play tennis" → "Nora
goes to Boston and plays tennis"), unless it hangs on an infinitive or a modal ("I love to
cook and bake", "I can sing and dance") or may be a noun ("I love music and dance."). The
verb forms themselves (word lists, conjugation) are in :mod:`.verb_forms`.
"""

from __future__ import annotations

import re

from omoide.engine.consolidate.binding import names_a_person_at
from omoide.engine.consolidate.verb_forms import (
    AUXILIARIES,
    BASE_VERBS,
    IRREGULAR,
    LY_VERBS,
    agreeing,
    conjugate,
    reads_present,
    would_or_had,
)
from omoide.engine.lang import SEARCH_STOPWORDS, word_set

__all__ = [
    "I_CLAUSE",
    "YOU_CLAUSE",
    "coordinated_verbs",
    "name_the_addressee",
    "name_the_speaker",
    "rewrite_subject",
]

_ADVERBS = (
    r"really|just|also|always|still|usually|never|often|sometimes|actually|totally|definitely|"
    r"even|finally|recently|now|only|truly|absolutely|mostly|rarely|already|kinda|kind of|"
    r"sort of|particularly|especially|honestly|seriously|constantly|occasionally|generally|"
    # any other -ly adverb ("I hardly sleep"), not one of the verbs in -ly
    rf"(?!(?:{LY_VERBS})\b)[a-z]{{2,}}ly"
)

# Auxiliaries that agree with the subject after them ("Do you …?", "Where were you?").
_INVERTED = r"do|don['’]t|have|haven['’]t|am|are|aren['’]t|were|weren['’]t"
_SUBJECT_TEMPLATE = (
    r"(?:\b(?P<inverted>(?i:{inverted}))\s+)?"
    r"\b{pronoun}(?P<contraction>['’](?:m|re|ve|(?:d|ll)(?:['’]ve)?))?"
    r"(?P<adverbs>(?:\s+(?:{adverbs}))*)"
    r"(?:\s+(?P<verb>(?!I(?![A-Za-z'’]))[A-Za-z]+(?:['’]t)?))?(?![A-Za-z'’])"
)
I_CLAUSE = re.compile(_SUBJECT_TEMPLATE.format(pronoun="I", adverbs=_ADVERBS, inverted=_INVERTED))
# "you know," is a filler and "you guys" / "you two" are plural: those stay as written.
_YOU = r"[Yy]ou(?!\s+know\s*[,.!?]|\s+(?:guys|all|two|both)\b)"
YOU_CLAUSE = re.compile(
    _SUBJECT_TEMPLATE.format(pronoun=_YOU, adverbs=_ADVERBS, inverted=_INVERTED)
)
# What comes right before a "you" that opens a clause (and so is its subject).
_CLAUSE_OPENERS = word_set(
    "and but or so yet then that when whenever while if unless because cause cuz since "
    "although though once until till where wherever whether as"
)

# "I'd've" and "I'll've" (would have, will have) are read whole: "I'd've gone" → "Nora would
# have gone".
_CONTRACTIONS = {
    "'m": "is",
    "'re": "is",
    "'ve": "has",
    "'ll": "will",
    "'d've": "would have",
    "'ll've": "will have",
}


def rewrite_subject(match: re.Match[str], name: str, *, open_class: bool = False) -> str:
    """A match of :data:`I_CLAUSE` or :data:`YOU_CLAUSE` with ``name`` as its subject:
    ``I'm really into`` → ``Nora is really into``; ``you love`` → ``Sam loves``; ``do you
    watch`` → ``does Sam watch``. ``open_class``: any word that reads as a present-tense verb
    is conjugated, not only the listed ones (after "I"; after "you" where it opens a clause)."""
    inverted = match.group("inverted")
    subject = agreeing(inverted) + " " + name if inverted else name
    contraction = (match.group("contraction") or "").replace("’", "'")
    adverbs = match.group("adverbs") or ""
    verb = match.group("verb")
    tail = f" {verb}" if verb else ""
    if contraction.lower() == "'d":
        return f"{subject} {would_or_had(verb)}{adverbs}{tail}"
    if contraction:
        return f"{subject} {_CONTRACTIONS[contraction.lower()]}{adverbs}{tail}"
    if verb is None:
        return f"{subject}{adverbs}"
    if inverted or _after_auxiliary(match) or _joint_subject(match):
        # "what can I add", "do you like", "Isolde and I love" keep it bare
        return f"{subject}{adverbs}{tail}"
    opens = open_class or _opens_clause(match)
    return f"{subject}{adverbs} {conjugate(verb, open_class=opens)}"


def _after_auxiliary(match: re.Match[str]) -> bool:
    before = match.string[: match.start()].split()
    return bool(before) and before[-1].lower().strip(",") in AUXILIARIES


def _joint_subject(match: re.Match[str]) -> bool:
    """ "Sarah and I", "my sister and you": a plural subject, whose verb takes no -s."""
    before = [word.strip(",") for word in match.string[: match.start()].split()]
    return (
        len(before) >= 2
        and before[-1].lower() in {"and", "&"}
        and names_a_person_at(before, len(before) - 2)
    )


def _opens_clause(match: re.Match[str]) -> bool:
    """The pronoun of ``match`` begins a clause (so it is that clause's subject)."""
    before = match.string[: match.start()].rstrip()
    if not before or before[-1] in '.!?;:,(—–"“':
        return True
    words = before.split()
    return words[-1].lower() in _CLAUSE_OPENERS


# Coordination: a bare verb after "and"/"or"/"but" that shares the speaker's "I".
_COORDINATORS = word_set("and or but")
_LINK_ADVERBS = word_set(
    "also then always usually often sometimes still really just now never even occasionally rarely"
)
# After these the verbs of the clause stay bare ("I can sing and dance", "I didn't go and buy").
_BARE_AFTER = word_set(
    "can could should will would may might must shall do does did don't doesn't didn't can't "
    "cannot won't wouldn't couldn't shouldn't gonna wanna gotta let lets"
)
# Words that open a verb's object: a bare word before one is a verb ("… and ride their bike").
_OBJECT_OPENERS = word_set(
    "the a an their his her its our my your this that these those some "
    "every each it them him us me everything something"
)
# An object that only a verb takes (an article may follow a noun: "tea and cake a lot").
_OWNED_OBJECT = word_set("the their his her its our my your it them him us me")
# Common verbs beyond ``BASE_VERBS`` that a coordinated clause takes with a complement.
_MORE_VERBS = word_set(
    "lift grab ride jog hang shop chat relax rest clean fix host order pick "
    "feed wash brew repair restore explore"
)
_ING_NOUNS = word_set(
    "morning mornings evening evenings nothing something anything "
    "everything thing spring king ring wedding ceiling building meeting"
)
_GOING = word_set(
    "go goes went going move moved drive drove walk walked come came head "
    "headed return returned back ride rode fly flew travel traveled travelled "
    "commute commuted"
)
_SCOPE_ENDS = (
    (frozenset('.!?;:()—–-"“”') | _CLAUSE_OPENERS | word_set("who whom whose which what how why"))
    - _COORDINATORS
    - {"then", "so"}
)
_SUBJECTS = word_set("i we he she they there i'm i've i'd i'll")
# A word that may open a clause of its own: after "and", a new subject, not a verb.
_CLAUSE_SUBJECTS = _SUBJECTS | word_set("it this that these those you my his her their our the")
# An "I" inside a clause that these open ("why I'm chasing my dream and keep me going") may
# share an "and" with the clause around it: its verb is left alone.
_EMBEDDING = word_set("why how what who whom which that where")
# Endings of nouns that are no verbs ("patience and attention it takes").
_NOUN_ENDINGS = ("tion", "sion", "ment", "ness", "ity", "ship", "ance", "ence", "ism", "hood")
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|[^\sA-Za-z]")


def name_the_speaker(sentence: str, name: str) -> str:
    """Every "I" of ``sentence`` as ``name`` with its verb agreeing, and the bare verbs joined
    to its clause by "and"/"or"/"but" agreeing too."""
    edits: list[tuple[int, int, str]] = []
    for match in I_CLAUSE.finditer(sentence):
        edits.append((match.start(), match.end(), rewrite_subject(match, name, open_class=True)))
        edits += coordinated_verbs(sentence, match)
    return _edited(sentence, edits)


def name_the_addressee(sentence: str, name: str) -> str:
    """Every "you" of ``sentence`` as ``name`` (:func:`rewrite_subject`); where that "you"
    opens a clause, and so is its subject, the verbs joined to it agree too ("When you finish
    work and go home" → "When Sam finishes work and goes home"; "I told you and left" keeps
    "left")."""
    edits: list[tuple[int, int, str]] = []
    for match in YOU_CLAUSE.finditer(sentence):
        edits.append((match.start(), match.end(), rewrite_subject(match, name)))
        if _opens_clause(match):
            edits += coordinated_verbs(sentence, match)
    return _edited(sentence, edits)


def _edited(sentence: str, edits: list[tuple[int, int, str]]) -> str:
    """``sentence`` with each (start, end, text) edit made; one overlapping another is left."""
    out, at = [], 0
    for start, end, text in sorted(edits):
        if start >= at:
            out.append(sentence[at:start] + text)
            at = end
    return "".join(out) + sentence[at:]


def coordinated_verbs(sentence: str, match: re.Match[str]) -> list[tuple[int, int, str]]:
    """The bare present-tense verbs that "and", "or" or "but" join to the clause of
    ``match`` (an :data:`I_CLAUSE` match), as (start, end, third-person form): "I go to Boston
    and play tennis" → the span of "play" and "plays"."""
    verb = match.group("verb")
    contraction = (match.group("contraction") or "").replace("’", "'").lower()
    if (
        match.group("inverted")
        or contraction not in ("", "'m")
        or _after_auxiliary(match)
        or (_joint_subject(match))
        or (verb is None and not contraction)
        or (
            verb is not None
            and verb.lower().replace("’", "'") in _BARE_AFTER | AUXILIARIES - {"am", "have", "do"}
        )
    ):
        return []
    opener = sentence[: match.start()].split()[-1:]
    if opener and opener[0].lower().strip(",") in _EMBEDDING:
        return []
    tokens = list(_TOKEN.finditer(sentence, match.end()))
    words = [t.group(0).lower().replace("’", "'") for t in tokens]
    edits: list[tuple[int, int, str]] = []
    last_verb = match.end()  # where the clause's latest verb ends
    for i, word in enumerate(words):
        if (
            word in _SCOPE_ENDS
            or word in _SUBJECTS
            or (word == "," and i + 1 < len(words) and words[i + 1] in _SUBJECTS)
            or (_finite_after(words, i))
        ):
            break
        if word in _BARE_AFTER or (
            word == "to"
            and _infinitive([(verb or "").lower(), *words], [t.group(0) for t in tokens], i)
        ):
            break  # the verbs joined after this hang on it, not on "I"
        if word not in _COORDINATORS:
            continue
        j = i + 1
        while j < len(words) and words[j] in _LINK_ADVERBS:
            j += 1
        if j >= len(words) or words[j] in _CLAUSE_SUBJECTS or not tokens[j].group(0).islower():
            break  # "… and it was freezing", "… and Isolde cooks": a clause of its own
        if i and words[i - 1] == ",":
            continue  # "…, and look at my tomatoes": often a clause (or a command) of its own
        candidate = tokens[j].group(0)
        if _joined_verb(
            candidate,
            [*words[j + 1 : j + 3], ".", "."],
            right_after_verb=tokens[i].start() <= last_verb + 1,
            before=words[i - 1] if i else "",
        ):
            edits.append(
                (tokens[j].start(), tokens[j].end(), conjugate(candidate, open_class=True))
            )
            last_verb = tokens[j].end()
    return edits


def _finite_after(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is a subject before a verb of its own ("it helps", "she
    works"): the clause of the speaker's "I" ended before it."""
    after = words[i + 1] if i + 1 < len(words) else ""
    return words[i] in _CLAUSE_SUBJECTS - {"my", "the", "you", "our", "his", "her", "their"} and (
        after in {"is", "was", "has", "does", "'s"}
        or (after.endswith("s") and not after.endswith("ss") and after.isalpha())
    )


def _infinitive(lowered: list[str], words: list[str], i: int) -> bool:
    """Whether the "to" at ``words[i]`` opens an infinitive ("love to cook") rather than a
    place or a person ("go to Boston", "go to school", "talk to Sam"). ``lowered`` is the
    clause's verb and then ``words`` in lower case."""
    written = words[i + 1] if i + 1 < len(words) else ""
    after = written.lower()
    if after in BASE_VERBS or after in _MORE_VERBS or after in IRREGULAR or after == "be":
        return True
    going = lowered[i] in _GOING  # the word before "to" (lowered is one word ahead)
    return not going and written.isalpha() and written.islower() and (after not in _OBJECT_OPENERS)


def _joined_verb(word: str, rest: list[str], *, right_after_verb: bool, before: str) -> bool:
    """Whether ``word``, right after "and", is a verb sharing the speaker's subject: a verb
    after a verb ("I cook and clean"), a listed verb with a complement ("… and play tennis"),
    or any present-looking word before an object ("… and restore them")."""
    low = word.lower()
    if (
        not word.islower()
        or (not reads_present(word) and low not in IRREGULAR)
        or (low in SEARCH_STOPWORDS and low not in IRREGULAR)
        or low.endswith(_NOUN_ENDINGS)
    ):
        return False
    listed = low in BASE_VERBS or low in _MORE_VERBS or low in IRREGULAR
    if (
        (low.endswith("s") and not listed)
        or rest[0] in _SUBJECTS | {"me", "myself"}
        or (_finite_after(rest, 0))
    ):
        return False  # "helps" agrees already; "support I got", "keep me going", "… it brings"
    if right_after_verb:
        return True
    if before.endswith("ing") and before not in _ING_NOUNS:
        return False  # "hiking and travel": two nouns
    after = rest[0]
    complement = (
        after[:1].isalnum()
        and after not in _COORDINATORS | {"too", "also"}
        and (rest[:2] != ["as", "well"])
    )
    if listed:
        return complement
    return after in _OWNED_OBJECT  # "… and restore them", not "tea and cake a lot"
