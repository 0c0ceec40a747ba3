"""A consolidated note closes an older memory only on a sure shape read in one sentence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import (
    Candidate,
    OfflineClassifier,
    Relation,
    note_closes,
    note_verdict,
)
from omoide.engine.classify.note_close import claims
from omoide.engine.classify.one_slot import (
    _EN_STATE_BEFORE,
    _JA_STATE_AFTER,
    EN_STATE_FRAMES,
    JA_STATE_FRAMES,
)

CLOSES = [
    # a single-valued state with another value
    ("Idris lives in Cardiff. (2 March 2026)", "Idris lives in Swansea now. (9 May 2026)", "en"),
    ("Noor works at a pharmacy in Hull.", "Noor works at a garden centre these days.", "en"),
    ("Teodor works as a tram driver.", "Teodor works as a locksmith now.", "en"),
    ("Lise is dating Marco.", "Lise is dating Henrik, and Lise seems happy.", "en"),
    ("Ama studies at Leeds Beckett.", "Ama studies at Sheffield Hallam now.", "en"),
    ("Kasper lives in Aarhus.", "Kasper moved to Odense with Kasper's cat.", "en"),
    ("Vera works at a dental surgery.", "Vera got a new job at the county archive.", "en"),
    # an explicit end of the old value
    (
        "Odile works at a florist on Mill Road.",
        "Odile quit the florist and is taking a break.",
        "en",
    ),
    ("Kasper lives in Aarhus.", "Kasper moved out of Aarhus in the spring.", "en"),
    ("Ines is married to Pavel.", "Ines divorced Pavel last year.", "en"),
    ("Yuki works at the aquarium.", "Yuki no longer works at the aquarium.", "en"),
    ("Bjorn works at the ferry yard.", "Bjorn quit the ferry yard. He fixes turbines now.", "en"),
    ("Bjorn lives in Tromso.", "Bjorn is happy. He lives in Bodo now.", "en"),
    ("Hamid sings in a barbershop quartet.", "Hamid gave up the barbershop quartet.", "en"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、今は盛岡に住んでいる。", "ja"),
    ("美穂は、地元の銀行に勤めている。", "美穂は、保険会社に勤めてるんだって。", "ja"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、盛岡に引っ越したんだ。", "ja"),
    ("美穂は、地元の銀行に勤めている。", "美穂は、銀行を辞めて、少し休むって。", "ja"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、仙台から引っ越したよ。", "ja"),
    ("千尋は、健と付き合っている。", "千尋は、健と別れたんだって。", "ja"),
    ("琉生は、合唱団で歌ってる。", "琉生は、合唱団をやめちゃった。", "ja"),
    ("美穂は、地元の銀行に勤めている。", "美穂は元気。今は市役所に勤めてる。", "ja"),
    # session 19: "X's left" is "X has left"; more ends; "no more X" and "can't X any more"
    # named whole; a group left by name; a thing sold
    ("Aurelio works at a bike shop.", "Aurelio's left the bike shop and drives a bus now.", "en"),
    ("Lena does judo at the sports hall.", "Lena has packed in judo.", "en"),
    (
        "Omar chairs the allotment society.",
        "Omar stepped down as chair of the allotment society.",
        "en",
    ),
    ("Tomas works at the print works.", "Tomas handed in Tomas's notice at the print works.", "en"),
    (
        "Ilse delivers parcels on a cargo bike.",
        "Ilse works in a warehouse now, no more parcels.",
        "en",
    ),
    (
        "Bruno swims in the lake before work.",
        "Bruno hurt Bruno's ear and can't swim any more.",
        "en",
    ),
    ("Kofi plays trumpet in the town brass band.", "Kofi left the brass band after a row.", "en"),
    ("Maren plays the double bass in a jazz trio.", "Maren sold the double bass.", "en"),
    # a couple's split ends a named partner; single ended by a partner; a move into a home
    ("Mirela's husband is called Anton.", "Mirela and Anton divorced in the spring.", "en"),
    ("Jonah is single.", "Jonah is dating a teacher from the choir.", "en"),
    ("Greta lives in a bedsit in Leith.", "Greta moved into a flat in Portobello.", "en"),
    # a count said as changed, of the same counted thing
    ("Ravi keeps four ferrets.", "Ravi is down to two ferrets now.", "en"),
    (
        "Ravi teaches yoga at the leisure centre three evenings a week.",
        "Ravi cut down to one evening of yoga.",
        "en",
    ),
    # shut for good, handed over, has had to stop, done at; an old clause of the past drops
    # alone
    ("Wanda runs a pottery studio by the canal.", "Wanda shut the pottery studio for good.", "en"),
    ("Wanda runs the parish newsletter.", "Wanda handed the parish newsletter over to Pat.", "en"),
    ("Wanda sings in the hospital choir.", "Wanda's had to stop the hospital choir.", "en"),
    ("Wanda works at the lido.", "Wanda is done at the lido and loves the free mornings.", "en"),
    (
        "Wanda is 70, used to be a nurse, and grows prize leeks.",
        "Wanda stopped growing leeks.",
        "en",
    ),
    # the consolidator's "The user …" is a subject, the same as a saved "User …"
    ("User works at the lido.", "The user has left the lido and coaches swimming now.", "en"),
    ("The user's partner is called Remy.", "Remy and the user have split up.", "en"),
    ("大介は、草野球のチームで投手をしてる。", "大介は、投手を引退したんだって。", "ja"),
    ("玲奈は、駅前で花屋をやってる。", "玲奈は、先月で店を閉めたんだって。", "ja"),
    ("悠真は、独身なんだ。", "悠真は、同僚の女性と結婚したんだって。", "ja"),
    ("紗希は、市役所の水道課で事務をしてる。", "紗希は、市役所を退職したんだって。", "ja"),
    (
        "和樹は、実家で祖母と暮らしてる。",
        "和樹は、実家を出て、駅の近くで一人暮らしを始めた。",
        "ja",
    ),
    ("陽子は、横浜の図書館に勤めてる。", "陽子は、川崎の図書館に勤めてるんだって。", "ja"),
    ("大翔は、会社の寮に住んでる。", "大翔は、寮を出て、友達とルームシェアしてるんだ。", "ja"),
    ("真奈は、週二回ヨガ教室に通ってる。", "真奈は、ヨガ教室を週四回に増やしたんだって。", "ja"),
    (
        "智也は、毎朝ジョギングしてる。",
        "智也は、膝を痛めて、もうジョギングはしてないんだって。",
        "ja",
    ),
    (
        "颯は、休みの日はロードバイクで走ってる。",
        "颯は、ロードバイクを売っちゃったんだって。",
        "ja",
    ),
]

STAYS = [
    # a note about someone else
    ("Bjorn works at a bakery.", "Bjorn's friend Ola quit the bakery.", "en"),
    ("Idris lives in Cardiff.", "Megan lives in Swansea.", "en"),
    ("翔太は、パン屋で働いている。", "翔太の友達は、パン屋を辞めた。", "ja"),
    ("翔太は、パン屋で働いている。", "翔太は、妹がパン屋を辞めたって。", "ja"),
    # a past event retold, "used to"
    ("Idris lives in Cardiff.", "Idris lived in Swansea years ago.", "en"),
    ("Noor works at a pharmacy.", "Noor used to work at a bakery.", "en"),
    ("Noor works at a pharmacy.", "Noor quit the pharmacy back in 2019, then went back.", "en"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、昔は盛岡に住んでいた。", "ja"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、盛岡に住んでいた。", "ja"),
    # a plan, a hypothetical
    ("Noor works at a pharmacy.", "Noor is going to quit the pharmacy.", "en"),
    ("Noor works at a pharmacy.", "If Noor quit the pharmacy, Noor would travel.", "en"),
    ("Kasper lives in Aarhus.", "Kasper wants to move to Odense.", "en"),
    ("美穂は、銀行に勤めている。", "美穂は、銀行を辞める予定だ。", "ja"),
    ("美穂は、銀行に勤めている。", "美穂は、もし銀行を辞めたら旅に出るって。", "ja"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、来年は盛岡に住みたいって。", "ja"),
    # someone else's words
    ("Noor works at a pharmacy.", "Ola said Noor quit the pharmacy.", "en"),
    ("美穂は、銀行に勤めている。", "先輩が、美穂は銀行を辞めたって言ってた。", "ja"),
    # a second value, the same value, a value made precise, another frame
    ("Noor works at a pharmacy.", "Noor also works at a bakery on Saturdays.", "en"),
    ("Idris lives in Cardiff.", "Idris lives in Cardiff with Idris's sister.", "en"),
    ("Idris lives in Wales.", "Idris lives in Cardiff, Wales.", "en"),
    ("Noor works as a nurse.", "Noor works at St Luke's.", "en"),
    ("美穂は、銀行に勤めている。", "美穂は、週末はカフェでも働いている。", "ja"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、仙台の北のほうに住んでいる。", "ja"),
    # leaving a place is no end of an activity; a reason is no end
    ("Hamid sings in a barbershop quartet.", "Hamid left the quartet's party early.", "en"),
    ("Bjorn works at the ferry yard.", "Bjorn met Ola. He quit the ferry yard.", "en"),
    ("Lottie lives in Hull.", "Lottie moved to the night shift in May.", "en"),
    ("Odile works at a florist.", "Odile is tired but loves the florist.", "en"),
    ("Odile works at a florist.", "Odile stopped by the florist on the way home.", "en"),
    ("Noor works at the hospital.", "Noor left the hospital after the surgery.", "en"),
    ("悠斗は、仙台に住んでいる。", "悠斗は、朝早く仙台を出て、山形に向かった。", "ja"),
    ("琉生は、合唱団で歌ってる。", "琉生は、合唱団の練習をやめてほしいって。", "ja"),
    # a past event is not ended by a later end; a generic verb names nothing
    ("Hamid passed Hamid's grade 3 harp exam.", "Hamid gave up the harp.", "en"),
    ("琉生は、合唱団で賞をもらったんだ。", "琉生は、合唱団をやめちゃった。", "ja"),
    ("Nadia is doing a degree in law.", "Nadia stopped doing night shifts.", "en"),
    # with whom one lives is not where; a capitalised word that names no one
    ("悠斗は、仙台に住んでいる。", "悠斗は、家族と一緒に住んでいる。", "ja"),
    ("The family lives in York.", "The family lives in Leeds now.", "en"),
    # session 19: seeing a physio is no partner; a trip is no leaving; a deed done (has lent)
    # is no activity; an age is a past retold; a thing sold is not the old verb ("paints")
    ("Jonah is single.", "Jonah is seeing a physio for Jonah's knee.", "en"),
    ("Jonah is single.", "Jonah loves teaching and seeing the pupils grow.", "en"),
    # a clause opening on someone's something, or on a number, is no activity of the subject
    (
        "The user quit smoking, the user's lungs feel clean.",
        "The user stopped the cleaning job.",
        "en",
    ),
    ("The user's sister works at the lido.", "The user has left the lido.", "en"),
    ("Kofi plays trumpet in the town brass band.", "Kofi left the band room early.", "en"),
    ("Elin has lent the canoe to the rowing club.", "Elin left the rowing club after a row.", "en"),
    ("Solveig is a vegan and loves cheese-free pizza.", "Solveig gave up cheese at fifteen.", "en"),
    ("Maren paints seascapes.", "Maren sold the painting of the harbour.", "en"),
    ("Wanda is 70, used to be a nurse, and grows prize leeks.", "Wanda quit nursing.", "en"),
    ("Wanda is still not reading crime novels.", "Wanda stopped the crime reading group.", "en"),
    ("Wanda works at the lido.", "Wanda shut the lido gate at six.", "en"),
    ("Aurelio's left knee hurts.", "Aurelio's left the clinic.", "en"),
    # a count of another thing, the same count, a second one
    (
        "Ravi swims three mornings a week.",
        "Ravi is up to five mornings a week at the garage now.",
        "en",
    ),
    ("Ravi keeps four ferrets.", "Ravi still has four ferrets now.", "en"),
    ("Ravi keeps four ferrets.", "Ravi also keeps two ferrets at his mum's now.", "en"),
    ("真奈は、週二回ヨガ教室に通ってる。", "真奈は、ジムに週四回通うようになったんだって。", "ja"),
    # a shop closed for the night; "no more" narrowed, not ended; a trade; a precision
    ("玲奈は、駅前で花屋をやってる。", "玲奈は、毎晩八時に店を閉めてから帰るんだって。", "ja"),
    ("智也は、毎朝コーヒーを飲んでる。", "智也は、もう夜はコーヒーを飲まないんだって。", "ja"),
    ("颯は、中古車の販売店で働いてる。", "颯は、中古車を売っているんだって。", "ja"),
    ("陽子は、図書館に勤めてる。", "陽子は、川崎の図書館に勤めてるんだって。", "ja"),
    ("悠真は、独身なんだ。", "悠真は、結婚したいらしい。", "ja"),
]


@pytest.mark.parametrize(("old", "new", "lang"), CLOSES)
def test_a_sure_shape_closes(old: str, new: str, lang: str) -> None:
    finding = note_closes(old, new, lang)
    assert finding is not None and finding.relation is Relation.CONTRADICTORY


@pytest.mark.parametrize(("old", "new", "lang"), STAYS)
def test_an_unsure_shape_does_not_close(old: str, new: str, lang: str) -> None:
    assert note_closes(old, new, lang) is None


@pytest.mark.parametrize(("old", "new", "lang"), CLOSES + STAYS)
def test_note_verdict_renders_what_note_closes_finds(old: str, new: str, lang: str) -> None:
    finding = note_closes(old, new, lang)
    verdict = note_verdict(Candidate("k", old, 0.5), claims(new, lang), lang, prefix="rule: ")
    if finding is None:
        assert verdict is None
    else:
        assert verdict is not None and verdict.key == "k"
        assert (verdict.relation, verdict.confidence, verdict.reason) == (
            finding.relation,
            finding.confidence,
            f"rule: {finding.reason}",
        )


def test_the_offline_classifier_reads_a_note_once_for_all_its_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from omoide.engine.classify import offline

    calls: list[str] = []

    def counted(text: str, lang: str = "auto") -> list:
        calls.append(text)
        return claims(text, lang)

    monkeypatch.setattr(offline, "note_claims", counted)
    olds = [
        Candidate("a", "Odile works at a florist on Mill Road.", 0.5),
        Candidate("b", "Odile lives in Leeds.", 0.5),
        Candidate("c", "Odile likes tea.", 0.5),
    ]
    verdicts = OfflineClassifier().classify(
        "Odile quit the florist. Odile paints now.", olds, note=True
    )
    assert calls == ["Odile quit the florist. Odile paints now."]
    assert [v.relation is Relation.CONTRADICTORY for v in verdicts] == [True, False, False]
    OfflineClassifier().classify("Odile quit the florist.", olds)  # not a note: never read
    assert len(calls) == 1


def test_the_offline_classifier_closes_on_a_note_only_through_a_sure_shape() -> None:
    old = Candidate("k", "Odile works at a florist on Mill Road.", 0.5)
    classifier = OfflineClassifier()
    (sure,) = classifier.classify("Odile quit the florist. Odile paints now.", [old], note=True)
    (unsure,) = classifier.classify("Odile is tired of the florist.", [old], note=True)
    assert sure.relation is Relation.CONTRADICTORY and sure.reason.startswith("note:")
    assert unsure.relation is not Relation.CONTRADICTORY


def test_a_note_in_another_language_is_not_read() -> None:
    old = Candidate("k", "悠斗は、仙台に住んでいる。", 0.5)
    (verdict,) = OfflineClassifier().classify("Yuto moved out of Sendai.", [old], note=True)
    assert verdict.relation is Relation.INDEPENDENT


def test_the_frames_are_one_slots_own() -> None:
    """The state frames are read from ``one_slot`` (named by kind), and its patterns are still
    built of exactly those kinds."""
    for frame in EN_STATE_FRAMES.values():
        assert frame in _EN_STATE_BEFORE.pattern
    for frame in JA_STATE_FRAMES.values():
        assert frame in _JA_STATE_AFTER.pattern


def test_claims_name_the_subject_and_drop_the_date() -> None:
    (state,) = [
        c for c in claims("Idris lives in Cardiff. (2 March 2026)", "en") if c.shape == "state"
    ]
    assert (state.subject, state.kind, state.value) == ("idris", "home", frozenset({"cardiff"}))


def test_a_count_claim_carries_its_amount_and_unit() -> None:
    (old,) = [c for c in claims("Ravi keeps four ferrets.", "en") if c.shape == "count"]
    (new,) = [c for c in claims("Ravi is down to two ferrets now.", "en") if c.shape == "count"]
    assert old.amount is not None and new.amount is not None
    assert (old.amount.value, new.amount.value, old.frame == new.frame) == (4, 2, True)
    assert (old.cue, new.cue) == ("count", "count now")  # only the note's count says a change


WORDS = st.sampled_from(
    [
        "Noor",
        "Noor's",
        "works",
        "at",
        "lives",
        "in",
        "quit",
        "left",
        "the",
        "pharmacy",
        "Cardiff",
        "used",
        "to",
        "will",
        "also",
        "no",
        "longer",
        ".",
        "moved",
        "from",
        "is",
        "dating",
    ]
)
JA = st.sampled_from(list("美穂はの銀行に勤めて住んでいる辞めた予定から引っ越し。、"))


@given(st.lists(WORDS, max_size=10), st.lists(WORDS, max_size=10))
def test_english_never_raises_and_a_text_never_closes_itself(a: list[str], b: list[str]) -> None:
    old, new = " ".join(a), " ".join(b)
    note_closes(old, new, "en")
    assert note_closes(old, old, "en") is None


@given(st.text(JA, max_size=20), st.text(JA, max_size=20))
def test_japanese_never_raises_and_a_text_never_closes_itself(old: str, new: str) -> None:
    note_closes(old, new, "ja")
    assert note_closes(old, old, "ja") is None
