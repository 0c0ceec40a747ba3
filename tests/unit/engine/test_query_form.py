"""engine.query_form: a query asking for a set gathered over time, told by its grammar (pure)."""

from __future__ import annotations

import pytest

from omoide.engine.query_form import asks_for_many, query_words, without_words


@pytest.mark.parametrize("query", [
    "What hobbies does Ken have?",  # a plural head noun, then a present auxiliary
    "Which cities has she visited?",
    "What outdoor sports do they play?",
    "What people has he met at work?",  # an irregular plural
    "What are Aiko's favourite foods?",  # "are" agrees with a plural subject
    "What kinds of music does the user like?",
    "Where has the user lived?",  # a present perfect, no time given
    "How many times did they go skiing in 2024?",  # a count, even with a date
    "What do Ken and Aiko both enjoy?",
    "ユーザーは今まで何回引っ越した？",
    "これまでに行った国をすべて教えて",
])
def test_a_question_for_a_set_asks_for_many(query: str) -> None:
    assert asks_for_many(query)


@pytest.mark.parametrize("query", [
    "What did Ken cook on Sunday?",
    "What is the user's job?",
    "Where does Aiko live?",
    "What hobbies did Ken pick up last month?",  # a time anchor makes it one fact
    "Which cities has she visited since May?",
    "What does his necklace mean?",  # "does" is an auxiliary, not a plural
    "Where has she been recently?",
    "The user likes green tea.",  # a statement
    "ユーザーの仕事は何？",
    "",
])
def test_a_question_for_one_fact_does_not(query: str) -> None:
    assert not asks_for_many(query)


def test_words_are_left_out_whole_and_spaces_collapse() -> None:
    query = "What hobbies does Ken have, Ken?"
    assert query_words(query) == ["What", "hobbies", "does", "Ken", "have"]
    assert without_words(query, {"Ken"}) == "What hobbies does have, ?"
    assert without_words("Kenji and Ken", {"Ken"}) == "Kenji and"  # not inside other words
    assert without_words("Ken?", {"Ken"}) == ""  # nothing left
