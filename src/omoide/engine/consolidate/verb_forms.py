"""English verb forms for subject–verb agreement: word lists and conjugation (pure, offline).

:mod:`omoide.engine.consolidate.agreement` finds the verb after a name that replaced "I" or
"you"; this module says what that word is and its third-person form: the common present-tense
verbs, the irregular and casual ones ("am" → "is", "wanna" → "wants to"), the past forms,
participles and linking words that never take -s, and whether "I'd" before a word means
"would" or "had". Data and word-level functions only; no I/O.
"""

from __future__ import annotations

from omoide.engine.lang import word_set

__all__ = [
    "AUXILIARIES",
    "BASE_VERBS",
    "IRREGULAR",
    "LY_VERBS",
    "agreeing",
    "conjugate",
    "reads_present",
    "would_or_had",
]

# Verbs that end in -ly: present tense after "I", never adverbs.
LY_VERBS = "apply|reply|supply|comply|imply|multiply|fly|rely|ally|bully|tally|rally|dally"

# The third-person forms that are not the word plus -s.
IRREGULAR = {
    "am": "is",
    "are": "is",
    "were": "was",
    "aren't": "isn't",
    "weren't": "wasn't",
    "have": "has",
    "do": "does",
    "don't": "doesn't",
    "haven't": "hasn't",
    "go": "goes",
    "ain't": "isn't",
    "doesn't": "doesn't",
    # casual forms a note spells out ("I wanna" → "Nora wants to", not "wannas")
    "wanna": "wants to",
    "gotta": "has to",
    "hafta": "has to",
    "gonna": "is going to",
}
BASE_VERBS = word_set(
    """
    love like hate prefer enjoy adore dislike want need think feel know believe hope plan try
    live work play miss find keep take make get see use run teach study paint cook bake draw
    sing dance swim hike travel visit volunteer help care mean remember forget wish agree
    understand guess appreciate own drive walk watch listen collect practice practise spend
    attend learn wonder worry struggle mentor seem look sound admire recommend focus stay wear
    bring buy sell call come give grow join lead manage meet pay prepare sleep talk tend write
    usually say consider dream imagine fancy crave teach train coach support create build
    celebrate exercise meditate journal knit garden sew paint value cherish treasure carry
    speak ski surf skate climb juggle crochet
    """
)
# Past forms that never take -s, forms that are past and present alike (read, put, cut …:
# they stay as written), and the words that follow "I" without being its verb (a
# preposition-like or adverb-like word). An unlisted word after "I" is conjugated only when
# it is none of these (nor a participle) and does not read as past (-ed), an adverb (-ly) or a
# negation. Participles that are no past form come first: after "I'd" they, and any past
# form, mean "had" ("I'd sunk", "I'd bought" → "had"), never "would".
_PARTICIPLES = word_set(
    """
    been seen done gone taken given eaten driven written spoken broken chosen fallen
    forgotten frozen hidden ridden risen shaken stolen sworn thrown torn woken worn known grown
    flown drawn begun drunk sung sunk swum rung shrunk sprung gotten
    """
)
_PAST_FORMS = word_set(
    """
    arose awoke bore beat became began bent bit bled blew broke bred brought built burnt bought
    caught chose clung came crept dealt dug did drew dreamt drank drove ate fell fed felt fought
    found fled flung flew forbade forgot forgave froze got gave went ground grew hung had heard
    hid held kept knelt knew laid led leant leapt learnt left lent lay lit lost made meant met
    mistook overcame paid rode rang rose ran said saw sought sold sent shook shone shot shrank
    sang sank sat slept slid slung smelt spoke sped spelt spent spilt spun spat spoilt sprang
    stood stole stuck stung stank strode struck strove swore swept swam swung took taught tore
    told thought threw trod understood undertook woke wore wove wept won wound withdrew wrung
    wrote
    """
)
_SAME_FORMS = word_set(
    """
    read put cut let set hit quit hurt cost shut spread bet cast burst fit split shed thrust
    """
)
_FUNCTION_WORDS = word_set(
    """
    and or but nor too then once first here there so as alone if when while who that which
    than almost ever soon later maybe somehow instead either neither both rather yet again
    myself personally anyway though for to of in on at with from by about into over after
    before up out off back down away home today tonight tomorrow
    """
)
_NOT_PRESENT = _PARTICIPLES | _PAST_FORMS | _SAME_FORMS | _FUNCTION_WORDS
AUXILIARIES = word_set(
    "can could do does did should will would may might must shall am was were are have has had"
)
_PAST_PARTICIPLE_HINT = frozenset({"been", "never", "already", "just", "gone", "done", "had"})


def agreeing(auxiliary: str) -> str:
    """``Do`` → ``Does``, ``were`` → ``was``: the third-person form, in the word's case."""
    low = auxiliary.lower().replace("’", "'")
    agreed = IRREGULAR.get(low, low)
    return agreed.capitalize() if auxiliary[:1].isupper() else agreed


def would_or_had(verb: str | None) -> str:
    """ "I'd love" → would; "I'd been", "I'd sunk", "I'd tried", "I'd never" → had."""
    if verb is None:
        return "would"
    low = verb.lower()
    past = (
        low in _PAST_PARTICIPLE_HINT
        or low in _PARTICIPLES
        or low in _PAST_FORMS
        or (low.endswith("ed") and len(low) > 3)
    )
    return "had" if past else "would"


def conjugate(verb: str, *, open_class: bool = False) -> str:
    """Third-person singular of a known present-tense verb; anything else stays as written."""
    low = verb.lower().replace("’", "'")
    if low in IRREGULAR:
        return IRREGULAR[low]
    if low not in BASE_VERBS and not (open_class and reads_present(verb)):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return f"{verb}es"
    if low.endswith("y") and low[-2:-1] not in set("aeiou"):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def reads_present(verb: str) -> bool:
    """An unlisted word after "I" that can only be a present-tense verb ("I drink", "I rent"):
    lower case, not a past form, participle, adverb, negation or linking word."""
    low = verb.lower()
    return (
        verb.isalpha()
        and verb.islower()
        and len(low) > 1
        and low not in _NOT_PRESENT
        and low not in AUXILIARIES
        and not low.endswith(("ed", "ing"))
        and (not low.endswith("ly") or low in LY_VERBS.split("|"))
    )
