"""A household changed (someone moved in, another number now: ``note_house``) and one named
who died (``note_gone``) close what the old memory said; written probes, both languages."""

from __future__ import annotations

import pytest

from omoide.engine.classify import Relation, note_closes

CLOSES = [
    (
        "Ottoline lives alone in a flat above the bakery.",
        "Ottoline's nephew Rob moved in with Ottoline after his divorce.",
        "en",
        "household",
    ),
    (
        "Brannagh lives on her own in a cottage by the quay.",
        "Brannagh's son and his wife have moved into the cottage.",
        "en",
        "household",
    ),
    (
        "Ulf lives alone in a bungalow in Crieff.",
        "Ulf's sister has moved into Ulf's spare room.",
        "en",
        "household",
    ),
    (
        "久美子は、金沢で一人暮らしをしてるんだって。",
        "久美子は、去年結婚して、今は夫と義父と三人で暮らしてる。",
        "ja",
        "household",
    ),
    (
        "勇は、妻と二人暮らし。",
        "勇のところに、息子夫婦が引っ越してきて一緒に住んでるんだって。",
        "ja",
        "household",
    ),
    (
        "Tamsin has a lurcher called Bramble who sleeps in the van.",
        "Bramble was put to sleep on Friday, he was sixteen.",
        "en",
        "died",
    ),
    (
        "Odile keeps two rabbits, Clover and Fig, in the garden.",
        "Odile buried Fig under the apple tree.",
        "en",
        "died",
    ),
    ("The user has a cat called Pudding.", "Pudding died in her sleep last week.", "en", "died"),
    ("真司は、猫のチャコを飼ってる。", "チャコが先月、老衰で亡くなったんだって。", "ja", "died"),
    ("真司の犬は柴犬で、名前はまめ。", "真司のまめは、十五歳で死んじゃったらしい。", "ja", "died"),
]

STAYS = [
    # for a while, someone else's home, or the one who lived alone moving in elsewhere
    (
        "Ottoline lives alone in a flat above the bakery.",
        "Ottoline's nephew is staying with Ottoline for a few weeks.",
        "en",
    ),
    (
        "Ulf lives alone in a bungalow in Crieff.",
        "Ulf's sister has moved into a flat in Perth.",
        "en",
    ),
    ("Ulf lives alone in a bungalow in Crieff.", "Ulf's sister has moved into the flat.", "en"),
    ("久美子は、金沢で一人暮らしをしてるんだって。", "久美子は、しばらく三人で暮らす予定。", "ja"),
    ("勇は、妻と二人暮らし。", "勇は、今も妻と二人で暮らしてる。", "ja"),
    # a way of speaking, a near miss, another one's death, a death said as a modifier
    (
        "Kit does stand-up at open mics three nights a week.",
        "Kit died on stage on Tuesday, nobody laughed.",
        "en",
    ),
    (
        "Tamsin has a lurcher called Bramble who sleeps in the van.",
        "Bramble nearly died after eating chocolate.",
        "en",
    ),
    (
        "Tamsin has a lurcher called Bramble who sleeps in the van.",
        "Tamsin's neighbour's dog died last week.",
        "en",
    ),
    (
        "吉川さんは毎朝仏壇にお茶を供える。",
        "吉川さんは毎朝、亡くなった夫が好きだった茶を供えている。",
        "ja",
    ),
    ("真司は、猫のチャコを飼ってる。", "真司の友達のハナが亡くなったんだって。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang", "kind"), CLOSES)
def test_a_household_changed_or_one_gone_closes(old: str, new: str, lang: str, kind: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and found.relation is Relation.CONTRADICTORY, (old, new)
    assert kind in found.reason


@pytest.mark.parametrize(("old", "new", "lang"), STAYS)
def test_a_stay_a_way_of_speaking_or_another_one_does_not_close(
    old: str, new: str, lang: str
) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang", "kind"), CLOSES)
def test_a_memory_telling_it_itself_is_not_closed(old: str, new: str, lang: str, kind: str) -> None:
    assert note_closes(new, new, lang) is None


DIET_CLOSES = [
    (
        "Casimir is teetotal, always on the lemonade.",
        "Casimir has a pint of bitter with the darts team on Thursdays now.",
        "en",
    ),
    ("Petronella is a strict vegetarian.", "Petronella eats chicken again since the autumn.", "en"),
    ("Alwyn doesn't drink coffee.", "Alwyn is on two espressos a day at the new job.", "en"),
    ("宏は、お酒が全然飲めないんだって。", "宏は、最近は毎晩ビールを一本飲んでるらしい。", "ja"),
    ("千代は肉を食べない。", "千代は最近、焼き鳥屋に通ってるんだって。", "ja"),
]
DIET_STAYS = [
    # narrowed, another thing, the end told again, cooked or sold, not drunk
    ("Alwyn doesn't drink coffee after 3 pm.", "Alwyn has an espresso every morning.", "en"),
    ("Alwyn doesn't eat pork.", "Alwyn has a weakness for lamb kebabs.", "en"),
    ("Alwyn doesn't drink coffee.", "Alwyn stopped drinking coffee years ago.", "en"),
    (
        "Petronella is a strict vegetarian.",
        "Petronella cooks bacon every morning at the cafe.",
        "en",
    ),
    ("Casimir is teetotal.", "Casimir has an energy drink before every match.", "en"),
    ("宏は、平日はお酒を飲まない。", "宏は、土曜の夜に居酒屋で飲むのが楽しみだ。", "ja"),
    ("宏は、生魚が食べられない。", "宏は、焼き魚が大好物だ。", "ja"),
    ("宏は、お酒を一滴も飲まない。", "宏は、冬は甘酒を飲みながら火の番をしてる。", "ja"),
    ("千代は肉を食べない。", "千代は三年前から肉を食べるのをやめたんだって。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang"), DIET_CLOSES)
def test_a_diet_turned_round_closes(old: str, new: str, lang: str) -> None:
    found = note_closes(old, new, lang)
    assert found is not None and "kept off" in found.reason, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), DIET_STAYS)
def test_a_narrowed_diet_another_food_or_the_start_retold_does_not_close(
    old: str, new: str, lang: str
) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A Japanese can't or don't-have turned round: the ability (泳げない → 泳げるようになった), a
# thing got (免許を持ってない → 免許を取った); not inside another word, not another's.
JA_FLIP_CLOSES = [
    ("正夫は泳げない。", "正夫は市民プールに通って、五十メートル泳げるようになった。", "ja"),
    (
        "正夫は、車の免許を持ってなくて、駅まで歩いてる。",
        "正夫は、夏に免許を取って、今は車で通ってる。",
        "ja",
    ),
    ("正夫は、スマホを持ってない。", "正夫は、孫にすすめられてスマホデビューしたんだって。", "ja"),
]
JA_FLIP_STAYS = [
    ("正夫は車を持っていない。", "正夫は自転車を持っている。", "ja"),
    ("正夫は、車の免許を持ってない。", "正夫は、弟が免許を取ったって喜んでた。", "ja"),
    ("正夫は泳げない。", "正夫は、やっぱり泳げるようにはならなかった。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang"), JA_FLIP_CLOSES)
def test_a_japanese_cannot_turned_round_closes(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), JA_FLIP_STAYS)
def test_a_japanese_cannot_kept_or_of_another_stays(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)


# A Japanese end said as given or sold to someone, all of it; a part given is no end.
JA_GIVEN_CLOSES = [
    ("和夫は町内会の会計をやってる。", "和夫は町内会の会計を後任に譲ったんだって。", "ja"),
    ("和夫はニワトリを十羽飼ってる。", "和夫はニワトリを全部近所の人に譲ったらしい。", "ja"),
]
JA_GIVEN_STAYS = [
    ("和夫はニワトリを十羽飼ってる。", "和夫はニワトリを三羽近所の人に譲ったらしい。", "ja"),
    ("和夫はニワトリを十羽飼ってる。", "和夫の兄がニワトリを全部近所の人に譲った。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang"), JA_GIVEN_CLOSES)
def test_a_japanese_end_given_away_closes(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is not None, (old, new)


@pytest.mark.parametrize(("old", "new", "lang"), JA_GIVEN_STAYS)
def test_a_part_given_or_another_giving_stays(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None, (old, new)
