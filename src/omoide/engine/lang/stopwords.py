"""Stopword lists, each named for the job it does (pure data; a word list, exempt from the
module size rule).

The lists differ on purpose, and behaviour depends on each one's contents:

- :data:`SEARCH_STOPWORDS` / :data:`SEARCH_STOPWORDS_JA`: dropped from keyword-search terms
  ("Rau", "user" stay searchable). The base of the two chat lists below.
- :data:`NOTE_STOPWORDS`: the search list plus chat contractions and fillers ("that's",
  "yeah"): words that never make a consolidated note's content.
- :data:`CONVERSATION_FILLER`: chat filler the search list keeps but that never names the
  topic of a conversation (segmentation's topic keywords drop both lists).
- :data:`FACT_TOPIC_STOPWORDS`: words that never name the topic of a one-line fact, for the
  contradiction classifier (also "user", frequency and recency adverbs).
"""

from __future__ import annotations

__all__ = [
    "CONVERSATION_FILLER",
    "FACT_TOPIC_STOPWORDS",
    "NOTE_STOPWORDS",
    "SEARCH_STOPWORDS",
    "SEARCH_STOPWORDS_JA",
    "word_set",
]


def word_set(text: str) -> frozenset[str]:
    """A word list written as one whitespace-separated string."""
    return frozenset(text.split())


# Our own list: function words that carry no topic in a memory ("Rau", "user" stay searchable).
SEARCH_STOPWORDS = word_set(
    """
    a about above after again against all am an and any are aren as at be because been before
    being below between both but by can could couldn did didn do does doesn doing don down during
    each few for from further had hadn has hasn have haven having he her here hers herself him
    himself his how i if in into is isn it its itself just ll me might more most must my myself
    no nor not now of off on once only or other our ours ourselves out over own re s same she
    should so some such t than that the their theirs them themselves then there these they this
    those through to too under until up ve very was wasn we were weren what when where which while
    who whom why will with won would you your yours yourself yourselves d m o y ain also
    """
)

# Hiragana runs that are grammar, not topic: particles, copulas, auxiliaries, question words.
SEARCH_STOPWORDS_JA = word_set(
    """
    これ それ あれ どれ ここ そこ あそこ どこ こと もの ため よう とき ところ
    です でした ます ました ません である だった でしょう ている ていた ていて てる
    している していた します しました する した して される された なる なった なって
    ある あった いる いた いつ なに なん どう どの どんな だれ いくら いくつ ですか
    ますか のは には では とは から まで より など について として という ような
    """
)

# The search stopwords plus the contractions and fillers of chat ("that's", "yeah").
NOTE_STOPWORDS = SEARCH_STOPWORDS | word_set(
    """
    i'm i've i'd i'll it's that's you're you've we're we've they're don't didn't doesn't can't
    isn't wasn't aren't won't let's there's what's here's ok okay oh yeah yes really
    """
)

# Chat filler that SEARCH_STOPWORDS (built for search) keeps but that never names a topic.
CONVERSATION_FILLER = word_set(
    """
    really great good awesome cool wow yeah yes thanks thank glad sure oh okay ok hey hi hello
    lot lots things thing something anything stuff feel feeling think know like love get got
    going go make made much many one way time day today well totally definitely amazing nice
    happy proud hear sounds sound looks look keep always never even still back new let see
    bye talk soon pretty kind super tough hard want need
    """
)

# Words that never name the topic of a one-line fact (the contradiction classifier's list).
FACT_TOPIC_STOPWORDS = word_set(
    "a an the and or but so because if then than that this these those there here it its i me my "
    "mine we our you your she her hers he him his they them their theirs user user's be have do "
    "will would can could should may might must shall not no nor to of in on at for from by with "
    "about into onto over under after before during since until up down out off as also too very "
    "really just still even only mostly especially particularly lot lots much many some any all "
    "each every both either who whom whose which what when where why how own same other another "
    "such more most less least again ever never always often usually sometimes lately recently "
    "now longer currently already yet well back around one ones thing things way s"
)
