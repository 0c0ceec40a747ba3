from omoide.engine.consolidate.rules import score_sentence, strip_interjections

NOBODY: frozenset[str] = frozenset()


def test_a_farewell_is_dropped_like_an_interjection() -> None:
    assert strip_interjections("Good night, talk tomorrow!", NOBODY) == ""
    assert strip_interjections("Bye for now!", NOBODY) == ""
    assert (
        strip_interjections("Cheers, I got the job at the harbour office.", NOBODY)
        == "I got the job at the harbour office."
    )
    assert (
        strip_interjections("Goodbye. Tomorrow I fly to Reykjavik.", NOBODY)
        == "Tomorrow I fly to Reykjavik."
    )


def test_see_you_with_a_place_is_kept() -> None:
    kept = "See you at the physio on Friday, she is strict."
    assert strip_interjections(kept, NOBODY) == kept
    assert strip_interjections("Talk tomorrow about the Rathlin trip", NOBODY).startswith("Talk")


def test_a_farewell_scores_nothing() -> None:
    assert score_sentence("Good night, talk tomorrow!", NOBODY).score == 0.0
