"""A note closes an older memory on a change it tells: a plan ended, a thing moved, a new home,
a value changed from one to another, a when moved (``note_change`` and its readers)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import Candidate, OfflineClassifier, Relation, note_closes
from omoide.engine.classify.note_claim import ja_units

CLOSES = [
    # a plan called off, put off or done
    (
        "Oskar is planning a cycling trip to Portugal in June.",
        "Oskar has called off Portugal, the bike needs a new frame.",
        "en",
        "plan dropped",
    ),
    (
        "Lena is saving up for a trip to Iceland next winter.",
        "The Iceland trip is off, Lena's car died.",
        "en",
        "plan dropped",
    ),
    (
        "Maja is training for the Turku marathon in May.",
        "Maja ran the Turku marathon on Sunday in 4:05!",
        "en",
        "plan done",
    ),
    (
        "Ravi wants to open a noodle bar by the station.",
        "Ravi has shelved the noodle bar idea for good.",
        "en",
        "plan dropped",
    ),
    (
        "健は、来年の春に北海道へ行く予定なんだ。",
        "健は、北海道旅行を中止したんだって。",
        "ja",
        "plan dropped",
    ),
    (
        "春菜は、漢検二級に向けて勉強してるんだ。",
        "春菜は、漢検二級に合格したって！",
        "ja",
        "plan done",
    ),
    (
        "修の陶芸展、秋に開く予定なんだ。",
        "修の陶芸展、延期になったんだって。",
        "ja",
        "plan dropped",
    ),
    # a thing moved, a new home
    (
        "Greta repairs violins in a studio above a chemist in Ripon.",
        "Greta has moved the studio to a barn outside Thirsk.",
        "en",
        "moved",
    ),
    (
        "Abel lives with two friends in a flat in Moseley.",
        "Abel has got a flat of his own in Harborne.",
        "en",
        "home start",
    ),
    (
        "Ilse rents a room near the harbour.",
        "Ilse moved in with Tomas in Vejle.",
        "en",
        "home start",
    ),
    ("聡は、吉祥寺で古本屋をやってる。", "聡は、古本屋を国立に移したんだって。", "ja", "moved"),
    # a value changed from one to another
    (
        "Femi plays trumpet in the town brass band.",
        "Femi switched to tuba in the brass band last month.",
        "en",
        "changed (setting)",
    ),
    (
        "Yara teaches art at a primary school.",
        "Yara teaches art at the sixth-form college now, not at the primary school.",
        "en",
        "changed (instead)",
    ),
    (
        "Colm sorts parcels at the depot.",
        "Colm drives the vans now instead of sorting parcels.",
        "en",
        "changed (instead)",
    ),
    (
        "Colm works nights at the depot.",
        "Colm has come off nights for good.",
        "en",
        "changed (off)",
    ),
    (
        "千里は、卒論のテーマが鎌倉の寺なんだ。",
        "千里は、テーマを鎌倉の寺から京都の庭園に変えた。",
        "ja",
        "changed (from)",
    ),
    (
        "航は、合唱部でテノールを歌ってる。",
        "航は、テノールからバスに移ったんだって。",
        "ja",
        "changed (from)",
    ),
    # a never or a dislike turned round
    (
        "Tove has never been on a sailing boat.",
        "Tove went on her first sailing boat trip in Kiel!",
        "en",
        "turned round",
    ),
    (
        "Bruno can't stand olives.",
        "Bruno has come round to olives, he eats them daily now.",
        "en",
        "turned round",
    ),
    (
        "恵は、一度もスキーをしたことがないんだって。",
        "恵は、初めてスキーに行ったんだって！",
        "ja",
        "turned round",
    ),
    ("亮は、納豆が苦手なんだ。", "亮は、最近納豆にハマってるらしい。", "ja", "turned round"),
    # an end in the note's first clause, of a thing the old memory names whole
    (
        "Pavel is learning the mandolin from videos.",
        "Pavel has given up on the mandolin, says his fingers hurt.",
        "en",
        "first clause",
    ),
    (
        "Noor plays five-a-side with the hospital team.",
        "Noor packed in the five-a-side, the knee was too sore.",
        "en",
        "first clause",
    ),
    (
        "萌は、けん玉教室に通ってる。",
        "萌は、けん玉をやめて、今は絵を描いてる。",
        "ja",
        "first clause",
    ),
    ("剛は、かるた部に入ってる。", "剛は、かるた部を抜けたんだって。", "ja", "first clause"),
    # a count said as changed in its own clause
    (
        "Ines keeps about twenty ducks by the pond.",
        "Ines has cut down to five ducks, twenty was a lot of work.",
        "en",
        "count said as now",
    ),
    (
        "Ines works at the florist, five days a week.",
        "Ines is down to two days at the florist.",
        "en",
        "count said as now",
    ),
    (
        "凛は、ウサギを二羽飼ってる。",
        "凛のウサギ、四羽に増えたんだって。",
        "ja",
        "count said as now",
    ),
    # a named workplace said as now
    (
        "Ama is a nurse at St Mary's in Leeds.",
        "Ama works at Airedale Hospital now.",
        "en",
        "works at",
    ),
    # a when moved
    (
        "Dora swims at the lido on Wednesday mornings.",
        "Dora swims at the lido on Sunday evenings now.",
        "en",
        "when now",
    ),
    (
        "Piet works the early shift at the bakery.",
        "Piet has been moved onto nights.",
        "en",
        "when now",
    ),
    (
        "美帆は、毎週月曜に公民館で書道を教えてる。",
        "美帆の書道、今は木曜に公民館で教えてるんだって。",
        "ja",
        "when now",
    ),
]

STAYS = [
    # a plan: someone else's, a different named event, a part done, not done, kept
    (
        "Oskar is planning a cycling trip to Portugal in June.",
        "Mia's Portugal trip is off, sadly.",
        "en",
    ),
    (
        "Maja is training for the Turku marathon in May.",
        "Maja ran the Espoo half marathon at the weekend.",
        "en",
    ),
    (
        "Ravi is writing a novel about a lighthouse.",
        "Ravi finished the first chapter of the novel.",
        "en",
    ),
    (
        "Oskar is planning a cycling trip to Portugal in June.",
        "Oskar might call off Portugal if the bike isn't fixed.",
        "en",
    ),
    (
        "Oskar is planning a cycling trip to Portugal in June.",
        "Oskar booked the ferry for the Portugal trip.",
        "en",
    ),
    (
        "健は、来年の春に北海道へ行く予定なんだ。",
        "健の友達が、北海道旅行を中止したんだって。",
        "ja",
    ),
    ("健は、来年の春に北海道へ行く予定なんだ。", "健は、北海道旅行を中止するかも。", "ja"),
    ("健は、漢検二級に向けて勉強してる。", "健の弟は、漢検二級に合格した。", "ja"),
    ("Oskar is planning a trip to Portugal.", "Oskar's brother's Portugal trip is off.", "en"),
    ("健は、来年の春に北海道へ行く予定なんだ。", "健は、北海道旅行をやめたいって。", "ja"),
    ("萌は、保育士として働いてる。", "萌は、保育士を辞めたいって毎日言ってる。", "ja"),
    # a move: elsewhere in the same place, for a while, someone else's
    (
        "Greta repairs violins in a studio in Ripon.",
        "Greta has moved the studio to a bigger room in Ripon.",
        "en",
    ),
    (
        "Abel lives with two friends in a flat in Moseley.",
        "Abel is staying with his mum for a few weeks.",
        "en",
    ),
    ("Abel lives in Moseley.", "Abel's sister has got a flat in Harborne.", "en"),
    ("聡は、吉祥寺で古本屋をやってる。", "聡の兄が、古本屋を国立に移したんだって。", "ja"),
    # a change: to something already named, of something the old memory does not name
    (
        "Femi plays trumpet and tuba in the town brass band.",
        "Femi switched to tuba in the brass band.",
        "en",
    ),
    ("Femi plays trumpet in the town brass band.", "Femi switched to decaf at work.", "en"),
    (
        "Femi works at a bank in Derby.",
        "Femi switched from the bank in Derby to teaching, though he might go back.",
        "en",
    ),
    ("航は、合唱部でテノールを歌ってる。", "航は、通勤を自転車から電車に変えた。", "ja"),
    # a no: still no, another thing, someone else
    ("Tove has never been on a sailing boat.", "Tove still won't go on a sailing boat now.", "en"),
    ("Bruno can't stand olives.", "Bruno loves capers now.", "en"),
    ("Bruno can't stand olives.", "Bruno's sister loves olives now.", "en"),
    ("亮は、納豆が苦手なんだ。", "亮は、最近も納豆は食べないらしい。", "ja"),
    # an end: back-story, a part, a drop-off, something the old memory says is not done
    ("Pavel doesn't eat meat.", "Pavel gave up meat at nineteen, after a farm visit.", "en"),
    ("Pavel keeps forty sheep on the hill.", "Pavel sold ten of the sheep at the mart.", "en"),
    ("Pavel takes the kids to school.", "Pavel dropped the kids at school early today.", "en"),
    ("Pavel is learning the mandolin.", "Pavel might give up on the mandolin.", "en"),
    ("萌は、けん玉教室に通ってる。", "萌は、けん玉をやめたいって。", "ja"),
    ("萌は、たばこを吸ってないんだ。", "萌は、二十歳でたばこをやめたんだって。", "ja"),
    # a count: the same amount, another thing, an event at a number
    ("Ines keeps about twenty ducks by the pond.", "Ines is down to about twenty ducks now.", "en"),
    (
        "Ines works at the florist, five days a week.",
        "Ines volunteers two days a week now at the shelter.",
        "en",
    ),
    (
        "凛は、タワーの五十階で働いてる。",
        "凛は、エレベーターが止まって四十階で待つことになったらしい。",
        "ja",
    ),
    # a workplace: the same place, a second one, someone else's
    ("Ama is a nurse at Leeds General Infirmary.", "Ama works at Leeds General now.", "en"),
    ("Ama is a nurse at St Mary's in Leeds.", "Ama also works at Airedale Hospital now.", "en"),
    (
        "Ama is a nurse at St Mary's in Leeds.",
        "Ama's brother works at Airedale Hospital now.",
        "en",
    ),
    # a when: also, the same time, another thing
    (
        "Dora swims at the lido on Wednesday mornings.",
        "Dora also swims at the lido on Sundays now.",
        "en",
    ),
    (
        "Dora swims at the lido on Wednesday mornings.",
        "Dora reads at the library on Sunday evenings now.",
        "en",
    ),
    (
        "美帆は、毎週月曜に公民館で書道を教えてる。",
        "美帆は、木曜にも公民館で教えてるんだって。",
        "ja",
    ),
]


@pytest.mark.parametrize(("old", "new", "lang", "kind"), CLOSES)
def test_a_change_told_closes(old: str, new: str, lang: str, kind: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and found.relation is Relation.CONTRADICTORY, (old, new)
    assert kind in found.reason


@pytest.mark.parametrize(("old", "new", "lang"), STAYS)
def test_a_change_not_surely_of_the_old_value_does_not_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang", "kind"), CLOSES)
def test_a_memory_telling_the_change_itself_is_not_closed_by_it(
    old: str, new: str, lang: str, kind: str
) -> None:
    assert note_closes(new, new, lang) is None
    assert note_closes(f"{old} {new}" if lang == "en" else old + new, new, lang) is None


def test_the_offline_classifier_closes_on_a_note_through_a_change() -> None:
    old, new, _, _ = CLOSES[0]
    [verdict] = OfflineClassifier().classify(new, [Candidate("k", old, 0.8)], lang="en", note=True)
    assert verdict.relation is Relation.CONTRADICTORY and "plan" in verdict.reason


def test_japanese_units_are_kanji_bigrams_and_whole_runs() -> None:
    assert ja_units("北海道旅行とスキー") == {"北海", "海道", "道旅", "旅行", "スキー"}
    assert ja_units("寮", lone=True) == {"寮"} and ja_units("寮") == frozenset()
    assert ja_units("来年の旅行", frozenset({"来年"})) == {"旅行"}


WORDS = st.sampled_from(
    [
        "Ann",
        "moved",
        "the",
        "studio",
        "to",
        "Leeds",
        "now",
        "nights",
        "is",
        "planning",
        "a",
        "trip",
        "called",
        "off",
        "switched",
        "from",
        "on",
        "Fridays",
        "lives",
        "in",
        "got",
        "flat",
        "ran",
        "marathon",
        ".",
        ",",
    ]
)


@given(st.lists(WORDS, max_size=12))
def test_a_text_never_closes_itself(words: list[str]) -> None:
    text = " ".join(words)
    assert note_closes(text, text, "en") is None
