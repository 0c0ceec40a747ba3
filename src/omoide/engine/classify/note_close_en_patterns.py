"""The English patterns of ``note_close``'s English reader (``note_close_en``): tables (pure).

Who a sentence is about (a name, a pronoun, not a determiner or a lead-in), the marks that sink
a sentence (a plan, a hypothetical, a past retold, a second value), the state frames read right
after the subject, a role, the ends and starts of a value, and the words no value is made of.
``note_close_en`` reads them; ``note_cues_en`` holds the cues a sentence may hold besides.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.one_slot import EN_STATE_FRAMES
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, word_set

__all__ = [
    "EN_ADVERBS",
    "EN_BREAK",
    "EN_END",
    "EN_GENERIC_LEMMAS",
    "EN_MOVED_TO_HOME",
    "EN_NOT_A_SUBJECT",
    "EN_NOT_PAST",
    "EN_NO_VERB",
    "EN_PAST_MARK",
    "EN_PRONOUN",
    "EN_ROLE",
    "EN_SECOND",
    "EN_START",
    "EN_STATE",
    "EN_SUBJECT",
    "EN_THE_USER",
    "EN_UNSURE",
    "EN_VALUE_STOP",
]

# The state kinds a note may close on: one value at a time, said the same way by any writer.
_KINDS = ("home", "work", "study", "partner")


EN_SUBJECT = re.compile(r"^(?P<s>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)(?P<rest> .*)$")
EN_PRONOUN = re.compile(r"^(?:He|She|They) (?P<rest>.*)$")
EN_ADVERBS = re.compile(
    r"^(?:(?:now|currently|finally|recently|just|officially|actually|has|have"
    r"|already|even) )+"
)
# A second value: the state may hold another value besides.
EN_SECOND = re.compile(
    r"\b(?:also|too|as well|another|second|part[- ]time|side (?:job|gig|hustle)|on the side"
    r"|sometimes|occasionally|during|summers?|winters?|weekends?|volunteer\w*|freelanc\w*"
    r"|hobby|spare time|free time)\b"
)
# A plan, a hypothetical, a past retold, a habit of old, a report: no state said as now.
EN_UNSURE = re.compile(
    r"\b(?:when|whenever|if|unless|would"
    r"|might|may|could|should|will|going to|gonna|plans?|planning|planned|hopes?|hoping|wants?"
    r"|wanted|thinking|considering|dreams?|used to|says|said|thinks|thought|told|tells|claims"
    r"|apparently|for a while|temporarily|for now|until|till|back in|ago|as a (?:kid|child|teen"
    r"|student)|at (?:the )?age|at (?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen"
    r"|eighteen|nineteen|twenty)|once|next|soon|tomorrow|maybe|perhaps|probably|wish|wishes|had|was|were"
    r"|pretend\w*|imagin\w*|\d{4})\b|\?"
)
EN_BREAK = re.compile(
    r",|;|:| - | and | but | so | because | since | while | where | who "
    r"| which | after | before | to | from | with | for | now\b| these days"
    r"| anymore| any more"
)
EN_GENERIC_LEMMAS = frozenset(
    en_lemma(w)
    for w in (
        "doing",
        "does",
        "going",
        "goes",
        "having",
        "has",
        "getting",
        "gets",
        "making",
        "makes",
        "taking",
        "takes",
        "working",
        "works",
        "living",
        "lives",
        "being",
        "is",
        "are",
    )
)
EN_VALUE_STOP = (
    word_set(
        "job work place company firm local new old small big little nice same other one there here "
        "city town area flat house apartment home room shop office full time place somewhere "
        "someone something lol haha really very good great bit lot everything all every each "
        "january february march april may june july august september october november december "
        "spring summer autumn fall winter monday tuesday wednesday thursday friday saturday sunday "
        "morning mornings evening evenings night nights"
    )
    | lex.EN_TIME_WORDS
)
# A frame read as stated (present tense, right after the subject); the preposition decides
# which values compare ("works at" an employer, "works as" a job).
EN_STATE = {
    kind: re.compile(rf"^(?:is |are )?(?P<frame>{EN_STATE_FRAMES[kind]}) (?P<value>.+)")
    for kind in _KINDS
}
EN_ROLE = re.compile(r"^(?:is|works as|serves as) (?:an?|the) (?P<value>.+)")
# Ends: the cue right after the subject, its object the ended value.
EN_END = (
    (
        "any",
        re.compile(
            r"^(?:quit|gave up(?: on)?|given up(?: on)?|stopped(?! by| at| in| off| to"
            r"| for| over)|dropped out of|packed in|(?:stepped|stood) down (?:as|from)"
            r"|stepped back from|retired as) (?P<value>.+)"
        ),
    ),
    # shut, closed, signed off for good; handed over or back; done at, finished at / on
    (
        "any",
        re.compile(
            r"^(?:closed|shut(?: down)?|signed off|hung up) (?P<value>.+?) (?:for good"
            r"|for the last time|permanently)\b"
        ),
    ),
    (
        "any",
        re.compile(
            r"^(?:handed (?:over|back) (?P<value>.+)|handed (?P<value2>.+?)"
            r" (?:over|back) to\b.*)"
        ),
    ),
    ("any", re.compile(r"^(?:is )?(?:done|finished) (?:at|on) (?P<value>.+)")),
    (
        "left",
        re.compile(
            r"^(?:left(?!.*\b(?:early|late|hurry|o'clock|\d ?[ap]m|lunch|for the day"
            r"|for home|this morning|tonight|yesterday|shift|meeting|appointment"
            r"|surgery|discharged|visit|holidays?|trip|weekend|for a (?:week|day|night"
            r"|few days))\b)|resigned from|retired from|walked out of"
            r"|stopped working (?:at|for|as|in)|(?:was|got) (?:laid off|let go|fired)"
            r" (?:from|by)|lost (?:his|her|their|the) job (?:at|as|with)"
            r"|handed in (?:his |her |their |[a-z\-]+'s )?notice (?:at|to)"
            r"|graduated from)"
            r" (?P<value>.+)"
        ),
    ),
    ("home", re.compile(r"^(?:moved (?:out |away |back )?from|moved out of) (?P<value>.+)")),
    (
        "partner",
        re.compile(
            r"^(?:broke up with|split (?:up )?(?:with|from)|separated from"
            r"|divorced|dumped) (?P<value>.+)"
        ),
    ),
)
# A start of a new value: a new home or a new employer.
EN_START = (
    ("home", "at", re.compile(r"^(?:(?:moved|relocated)(?: back)? to|moved into) (?P<value>.+)")),
    (
        "work",
        "at",
        re.compile(
            r"^(?:got|took|taken|started|landed) (?:a|an) (?:[a-z\-]+ ){0,2}job"
            r" (?:at|with) (?P<value>.+)"
            r"|^started working (?:at|for) (?P<value2>.+)"
        ),
    ),
)


# A capitalised opening word that names no one (a determiner, a pronoun, a time, a lead-in).
EN_NOT_A_SUBJECT = FACT_TOPIC_STOPWORDS | word_set(
    "the a an my our your his her their its this that these those it there we i you he she they "
    "when if after before since while today yesterday tomorrow last next now then so but and "
    "also big good great sadly luckily finally apparently honestly anyway user's everyone someone"
)


# A clause that opens on a noun phrase ("the user's cholesterol …", "eleven weeks clean") says
# what someone or something else does, not the subject.
EN_NO_VERB = re.compile(
    r"^(?:the|a|an|my|his|her|their|its|this|that|these|those|some|all|every|each|no"
    r"|[a-z\-]+'s|\d[\d,.]*|" + "|".join(lex.EN_NUMBER_WORDS) + r")\b"
)
EN_THE_USER = re.compile(r"\b[Tt]he user\b")
# Words ending in -ed that ``note_close_en`` does not read as a verb in the past.
EN_NOT_PAST = word_set("need needed")
# The marks of EN_UNSURE that put one clause in the past (not a plan's or a condition's scope).
EN_PAST_MARK = re.compile(r"\b(?:used to|years ago|ago|back in|once|had|was|were|\d{4})\b")
# A move to a home: it names a place or a dwelling ("moved to Leeds", "moved to a tiny studio"), not
# "the night shift".
EN_MOVED_TO_HOME = re.compile(
    r"\b(?:(?:moved|relocated)(?: back)? to|moved into) "
    r"(?:(?:a|an|the|his|her|their|new|own|tiny|small|big) )*"
    r"(?:[A-Z]|(?:flat|house|apartment|studio|bungalow|cottage|room|home|place)\b)"
)
