from omoide.engine.peer_formats import _indefinite


def test_indefinite_article_follows_the_first_sound() -> None:
    assert _indefinite("organization") == "an organization"
    assert _indefinite("Event") == "an Event"
    assert _indefinite("person") == "a person"
    assert _indefinite("university") == "a university"
    assert _indefinite("hour") == "an hour"
    assert _indefinite("European city") == "a European city"
    assert _indefinite("人物") == "a 人物"
