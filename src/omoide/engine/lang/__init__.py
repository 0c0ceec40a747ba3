"""The language layer: script detection, the :class:`Lang` type, words and stopwords (pure).

Every other part of Omoide asks this package which language a text is in and how to cut it into
words; no other module keeps its own detector, tokeniser or stopword list.
"""

from omoide.engine.lang.calendar_words import EN_MONTH_ABBREVIATIONS, EN_MONTHS, EN_WEEKDAYS
from omoide.engine.lang.script import (
    CJK_CLASS,
    Lang,
    Run,
    Script,
    as_hiragana,
    detect_lang,
    fold_latin,
    has_cjk,
    is_japanese,
    normalise,
    script_runs,
)
from omoide.engine.lang.stopwords import (
    CONVERSATION_FILLER,
    FACT_TOPIC_STOPWORDS,
    NOTE_STOPWORDS,
    SEARCH_STOPWORDS,
    SEARCH_STOPWORDS_JA,
    word_set,
)
from omoide.engine.lang.words import (
    QueryTerms,
    char_ngrams,
    cjk_terms,
    english_words,
    note_content_words,
    query_terms,
    spaced_for_words,
    without_words,
    word_tokens,
)

__all__ = [
    "CJK_CLASS",
    "CONVERSATION_FILLER",
    "EN_MONTHS",
    "EN_MONTH_ABBREVIATIONS",
    "EN_WEEKDAYS",
    "FACT_TOPIC_STOPWORDS",
    "NOTE_STOPWORDS",
    "SEARCH_STOPWORDS",
    "SEARCH_STOPWORDS_JA",
    "Lang",
    "QueryTerms",
    "Run",
    "Script",
    "as_hiragana",
    "char_ngrams",
    "cjk_terms",
    "detect_lang",
    "english_words",
    "fold_latin",
    "has_cjk",
    "is_japanese",
    "normalise",
    "note_content_words",
    "query_terms",
    "script_runs",
    "spaced_for_words",
    "without_words",
    "word_set",
    "word_tokens",
]
