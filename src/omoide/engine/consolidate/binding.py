"""First-person words that refer back to the clause's own "I": a pronoun, not the name (pure).

Rewriting a turn in the third person names the speaker where they said "I"; naming them again
for every "my" of the same clause reads wrong ("Ken sewed Ken's first quilt"). Once the
clause's subject is the speaker, a later "my"/"mine" becomes "their"/"theirs", "me" becomes
"them" ("themself" right after the subject's verb: "I got me a bike"), "myself" "themself".
The store knows no one's gender, so the pronoun is the singular "they", never "his"/"her".

A pronoun must never point at the wrong person, so the name stays whenever another referent
could take it: a quote, a new clause with a subject of its own ("… and my wife sold my car",
"when my dog died"; a short "… and my bike." that ends the clause is one more object), or,
between the subject and the word, another person or group ("Sarah", "she", "you", "my
sister", "the kids"): "I told Sarah about my job" keeps "Ken's job". A
reflexive binds to its clause's subject whatever stands between ("I told Sarah about myself"
→ "themself"); outside such a clause "myself" is the name.

Japanese: 「私は私の車を売った」 → 「私は自分の車を売った」 (自分 binds to the subject) when no
other subject (が/は), quote or sentence end stands between; the plural keeps its suffix
(私たちは私たちの家 → 私たちは自分たちの家).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.lang import word_set

__all__ = ["bind_first_person", "names_a_person", "names_a_person_at"]

_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|[^\sA-Za-z]")
_I_FORMS = frozenset({"I", "I'm", "I’m", "I've", "I’ve", "I'd", "I’d", "I'll", "I’ll"})
# Punctuation that ends a clause or opens a quote or an aside.
_BOUNDARY_MARKS = frozenset(".!?;:()[]{}\"“”‘’'«»—–…/")
# Words that open a clause of their own, whatever follows.
_SUBORDINATORS = word_set(
    "because cause cuz when whenever while although though if unless whereas which who whom "
    "whose where wherever whether"
)
# Words (and the comma) that open a new clause only when a subject follows ("and my wife
# sold …"); before a verb they go on with the same subject ("I quit my job and sold my car").
_LINKS = word_set("and but or nor so yet that then plus")
_COMPOUND = frozenset({"and", "or", "nor", "&"})
_SUBJECT_STARTERS = word_set(
    "all both each every many most some none no any my our your his her their its the a an "
    "this that these those he she they we you it "
    "there someone somebody everyone everybody nobody people one"
)
# Words that name someone a "their"/"them" could be read as: people and groups of them.
_OTHERS = word_set(
    """
    he she him her his hers herself himself they them their theirs themselves themself
    you your yours yourself yourselves we us our ours ourselves
    someone somebody anyone anybody everyone everybody nobody people person guy guys girl
    girls boy boys man men woman women kid kids child children baby babies son sons daughter
    daughters mom moms mum mums mother mothers dad dads father fathers parent parents sister
    sisters brother brothers sibling siblings wife wives husband husbands partner partners
    boyfriend boyfriends girlfriend girlfriends fiance fiancee friend friends buddy buddies
    family families cousin cousins aunt aunts uncle uncles niece nieces nephew nephews
    grandma grandpa grandmother grandfather grandparents grandson granddaughter grandkids
    grandchildren colleague colleagues coworker coworkers boss bosses team teammates
    neighbor neighbors neighbour neighbours teacher teachers student students doctor doctors
    coach coaches mentor mentors client clients customer customers group crowd class
    classmates roommate roommates folks everyone others other
    """
)
# Words that end in "s" without naming several things (a plural "the bikes" could take a
# "their"): the verbs and function words a clause is made of.
_NOT_PLURAL = word_set(
    "is was has does this its us always perhaps sometimes yes thus as plus less unless across "
    "various serious famous nervous anxious delicious gorgeous previous ridiculous bus gas "
    "lens news series species christmas whereas besides towards afterwards upwards"
)
_PREPOSITIONS = word_set(
    "with to for at behind about around near beside by on from of without like after before "
    "towards toward into onto upon against among inside outside"
)
_SENTENCE_MARKS = frozenset(".!?")
# A capitalised word is a place, not a person, after a preposition of place ("in Kyoto", "at
# Google", "through Ohio"), after "to" or "from" that follow a verb of going or being ("moved
# to Kyoto", "flew back from Osaka", "I'm from Leeds"), or as what is visited ("visited Paris").
# "with Sarah", "told Sarah", "gave it to Sarah" and "Sarah's" stay people.
_PLACE_PREPOSITIONS = word_set(
    "in at near through across around into inside outside via throughout within toward towards"
)
_VISITING = word_set(
    "visit visits visited visiting explore explores explored exploring tour tours toured touring"
)
_GOING = word_set(
    """
    go goes went gone going move moves moved moving fly flies flew flying drive drives drove
    driving travel travels traveled travelled traveling travelling come comes came coming
    return returns returned returning head heads headed heading walk walks walked walking
    ride rides rode riding commute commutes commuted relocate relocates relocated relocating
    get gets got getting trip trips flight flights back way home am is are was were i'm
    """
)
_MONTHS_AND_DAYS = word_set(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday "
    "christmas easter halloween thanksgiving hanukkah diwali ramadan eid"  # days, not people
)


@dataclass(frozen=True)
class _Person:
    """The words of one grammatical person a walk binds: its subject, the words that refer
    back to it and what they become."""

    bound: dict[str, str]
    own: frozenset[str]  # its words: never "someone else" to its own walk
    clause_start_only: bool  # "you" is also an object: a subject only where a clause opens

    def is_subject(self, tokens: list[re.Match[str]], index: int) -> bool:
        word = tokens[index].group(0)
        if not self.clause_start_only:
            return word in _I_FORMS
        if _base(word) != "you":
            return False
        after = _base(tokens[index + 1].group(0)) if index + 1 < len(tokens) else ""
        before = tokens[index - 1].group(0) if index > 0 else "."
        return after not in {"know", "guys", "all", "two", "both"} and (
            before in _BOUNDARY_MARKS
            or before == ","
            or _base(before) in _SUBORDINATORS
            or _base(before) in _LINKS
        )


_FIRST = _Person(
    bound={"my": "their", "mine": "theirs", "me": "them", "myself": "themself"},
    own=word_set("i my mine me myself"),
    clause_start_only=False,
)
_SECOND = _Person(
    bound={"your": "their", "yours": "theirs"},
    own=word_set("you your yours yourself"),
    clause_start_only=True,
)


def bind_first_person(sentence: str, *, japanese: bool, addressee: bool = False) -> str:
    """``sentence`` with the first-person words that refer back to the clause's own "I" as the
    pronoun a third-person note uses ("I sewed my first quilt" → "I sewed their first
    quilt"; 「私は私の車を売った」 → 「私は自分の車を売った」); every other first-person word
    is left for the name. With ``addressee`` (the caller names whom "you" means), "your"
    after the clause's own "you" too ("You ran your first race" → "You ran their first
    race")."""
    if japanese:
        return _bind_japanese(sentence)
    text = _bind_english(sentence, _FIRST)
    return _bind_english(text, _SECOND) if addressee else text


def _bind_english(sentence: str, person: _Person) -> str:
    tokens = list(_TOKEN.finditer(sentence))
    replacements: list[tuple[int, int, str]] = []
    state = _Clause()
    for index, match in enumerate(tokens):
        word = match.group(0)
        low = _base(word)
        if person.is_subject(tokens, index):
            state.open(tokens, index)
        elif _is_boundary(sentence, match) or low in _SUBORDINATORS:
            state.close(hard=word in _SENTENCE_MARKS, antecedent=low in _SUBORDINATORS)
        elif low in _LINKS or word == ",":
            if (
                _opens_subject(tokens, index + 1) and not _object_only(sentence, tokens, index + 1)
            ) or (word == "," and state.subordinate):
                state.close(hard=False, antecedent=True)
        elif low in person.bound and word in (low, low.capitalize()):
            bound = _bound_form(tokens, index, state, person)
            if bound is not None and not sentence.startswith("-", match.end()):  # "me-time"
                replacements.append((match.start(), match.end(), bound))
            state.antecedent = state.antecedent or low == "me"
        elif _names_someone(tokens, index, person):
            thing = _plural_thing(tokens, index)
            # the subject's own things ("their hobbies and their classes") are no one else a
            # "their" could mean; other things ("the bikes") stand between a subject and its
            # "their"; a person ("Sarah", "my sister") keeps the name for the whole sentence
            if not (thing and replacements and replacements[-1][1] == tokens[index - 1].end()):
                state.clear, state.others = False, state.others or not thing
    return _applied(sentence, replacements)


@dataclass
class _Clause:
    """What the walk through a sentence knows at the current word."""

    subject: bool = False  # the clause's subject is the speaker's "I"
    clear: bool = False  # …and no one else a pronoun could mean has come up since
    subordinate: bool = False  # …in a clause opened by "when", "where" …: a comma ends it
    others: bool = False  # someone else (a person) has come up since the sentence began
    antecedent: bool = False  # an "I" or "me" a "myself" can refer to
    verb_at: int = -1  # index of the token right after that "I": its verb

    def open(self, tokens: list[re.Match[str]], index: int) -> None:
        before = _base(tokens[index - 1].group(0)) if index > 0 else ""
        after = _base(tokens[index + 1].group(0)) if index + 1 < len(tokens) else ""
        # "Sarah and I" is not the speaker alone; in "… last spring and I love my cat" he is
        compound = (
            before in _COMPOUND
            and index > 1
            and names_a_person_at([t.group(0) for t in tokens], index - 2)
        )
        self.subject = not compound and after not in _COMPOUND
        self.clear = self.subject and not self.others
        self.subordinate = before in _SUBORDINATORS or before in {"that", "as", "than"}
        self.antecedent, self.verb_at = True, index + 1

    def close(self, *, hard: bool, antecedent: bool) -> None:
        self.subject = self.clear = self.subordinate = False
        self.others = self.others and not hard
        self.antecedent = self.antecedent and antecedent


def _base(word: str) -> str:
    """The word without its contraction, lower case: "That'll" → "that"."""
    return word.lower().replace("’", "'").split("'")[0] if word[1:] else word.lower()


def _is_boundary(sentence: str, match: re.Match[str]) -> bool:
    word = match.group(0)
    if word == "-":  # a dash between spaces, not a hyphen
        return (
            sentence[match.start() - 1 : match.start()].isspace()
            and sentence[match.end() : match.end() + 1].isspace()
        )
    return word in _BOUNDARY_MARKS


def _bound_form(
    tokens: list[re.Match[str]], index: int, state: _Clause, person: _Person
) -> str | None:
    word = tokens[index].group(0).lower()
    if word == "myself":  # a reflexive binds to its clause's "I" or "me", whoever came between
        return person.bound[word] if state.antecedent else None
    if not (state.subject and state.clear):
        return None
    if word != "me":
        return person.bound[word]
    if state.subordinate:
        return None
    if index == state.verb_at + 1:
        return "themself"  # "I got me a bike": the subject's own verb
    before = tokens[index - 1].group(0).lower()
    return "them" if before in _PREPOSITIONS else None  # "I brought it with me"


def _opens_subject(tokens: list[re.Match[str]], index: int) -> bool:
    """Whether the word at ``index`` opens a clause's subject (not the speaker's "I")."""
    if index >= len(tokens):
        return False
    word = tokens[index].group(0)
    if word in _I_FORMS:
        return False
    return _base(word) in _SUBJECT_STARTERS or (word[:1].isupper() and word.isalpha())


def _object_only(sentence: str, tokens: list[re.Match[str]], index: int) -> bool:
    """Whether the words from ``index`` are a short noun phrase that ends its clause (no room
    for a verb): "I sold my car and my bike." — one more object of the same subject, not a
    clause of its own ("… and my wife sold it")."""
    for ahead in tokens[index + 1 : index + 4]:
        if _is_boundary(sentence, ahead) or ahead.group(0) == ",":
            return True
    return index + 4 > len(tokens) and index + 1 < len(tokens)


def _names_someone(tokens: list[re.Match[str]], index: int, person: _Person) -> bool:
    """Whether the token at ``index`` names a person, a group or several things a "their"
    could be read as (a name, "she", "my sister", "the bikes")."""
    if index >= len(tokens):
        return False
    word = tokens[index].group(0)
    low = word.lower().replace("’", "'")
    if _base(word) in person.own:
        return False
    if _base(word) in _OTHERS or word in _I_FORMS or _base(word) in _FIRST.own:
        return True
    if word[:1].isupper() and low not in _MONTHS_AND_DAYS:
        # a capitalised word inside the sentence: a name, unless it names a place
        return index > 0 and not is_place([t.group(0) for t in tokens], index)
    return (
        low.endswith("s")
        and len(low) > 3
        and low not in _NOT_PLURAL
        and not low.endswith(("ss", "us", "is", "ous", "'s"))
    )


def names_a_person(word: str) -> bool:
    """A word that names a person or a group of people ("Sarah", "sister", "kids", "he")."""
    return _base(word) in _OTHERS or (
        word[:1].isupper()
        and word.isalpha()
        and word not in _I_FORMS
        and word.lower() not in _MONTHS_AND_DAYS
    )


def names_a_person_at(words: list[str], index: int) -> bool:
    """:func:`names_a_person` for the word at ``index`` of a sentence's ``words``, read in its
    place: "Sarah and I" is two people, "in Kyoto and I" is the speaker alone."""
    return names_a_person(words[index]) and not is_place(words, index)


def is_place(words: list[str], index: int) -> bool:
    """Whether the capitalised word at ``index`` of ``words`` (a sentence's words in order)
    names a place by where it stands ("in Kyoto", "moved to Winnipeg", "visited Paris")."""
    if not (words[index][:1].isupper() and words[index].isalpha()):
        return False
    start = index
    while (
        start > 0
        and words[start - 1][:1].isupper()
        and words[start - 1].isalpha()
        and (_lower(words[start - 1]) not in _PLACE_PREPOSITIONS | _VISITING | {"to", "from"})
    ):
        start -= 1  # "New York", "Los Angeles": the name's first word
    if start == 0:
        return False
    before = _lower(words[start - 1])
    if before in _PLACE_PREPOSITIONS or before in _VISITING:
        return True
    return before in {"to", "from"} and start > 1 and _lower(words[start - 2]) in _GOING


def _lower(word: str) -> str:
    return word.lower().replace("’", "'")


def _plural_thing(tokens: list[re.Match[str]], index: int) -> bool:
    """A plural noun ("the bikes") rather than a person or a group of people."""
    word = tokens[index].group(0)
    return word.islower() and _base(word) not in _OTHERS and _base(word) not in _FIRST.own


def _applied(sentence: str, replacements: list[tuple[int, int, str]]) -> str:
    out, last = [], 0
    for start, end, word in replacements:
        original = sentence[start:end]
        out.extend((sentence[last:start], word.capitalize() if original[0].isupper() else word))
        last = end
    out.append(sentence[last:])
    return "".join(out)


_JA_FIRST = r"(?:私(?![立服物用鉄的生])|僕|俺|わたし|あたし)"
_JA_PLURAL = r"(?:たち|達|ら)"
# The speaker as the clause's topic or subject: 私は / 僕が / 私たちも.
_JA_SUBJECT = re.compile(rf"{_JA_FIRST}(?P<plural>{_JA_PLURAL})?(?:は|が|も)")
# A later first person the particle after it shows is not a subject: 私の, 僕を, 俺に, 私自身.
_JA_BACK = re.compile(
    rf"{_JA_FIRST}(?P<plural>{_JA_PLURAL})?(?=の|を|に|へ|と|から|より|まで|で|自身)"
)
# What ends the subject's reach: a sentence end, a quote, another subject (が/は), a quoted
# thought (と思う, って).
_JA_STOP = re.compile(
    rf"{_JA_FIRST}{_JA_PLURAL}?(?:は|が|も)|[。．！？!?「」『』（）()\n]|が|は|って|と(?:言|思|聞|話)"
)


def _bind_japanese(sentence: str) -> str:
    out, last = [], 0
    for subject in _JA_SUBJECT.finditer(sentence):
        if subject.start() < last:
            continue
        stop = _JA_STOP.search(sentence, subject.end())
        end = stop.start() if stop else len(sentence)
        plural = subject.group("plural") is not None
        out.append(sentence[last : subject.end()])
        last = subject.end()
        for back in _JA_BACK.finditer(sentence, subject.end(), end):
            if (back.group("plural") is not None) != plural:
                continue
            out.extend((sentence[last : back.start()], "自分たち" if plural else "自分"))
            last = back.end()
        out.append(sentence[last:end])
        last = end
    out.append(sentence[last:])
    return "".join(out)
