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
    ("Odile works at a florist on Mill Road.", "Odile quit the florist and is taking a break.",
     "en"),
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
            finding.relation, finding.confidence, f"rule: {finding.reason}")


def test_the_offline_classifier_reads_a_note_once_for_all_its_candidates(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from omoide.engine.classify import offline

    calls: list[str] = []

    def counted(text: str, lang: str = "auto") -> list:
        calls.append(text)
        return claims(text, lang)

    monkeypatch.setattr(offline, "note_claims", counted)
    olds = [Candidate("a", "Odile works at a florist on Mill Road.", 0.5),
            Candidate("b", "Odile lives in Leeds.", 0.5),
            Candidate("c", "Odile likes tea.", 0.5)]
    verdicts = OfflineClassifier().classify("Odile quit the florist. Odile paints now.", olds,
                                            note=True)
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
    (state,) = [c for c in claims("Idris lives in Cardiff. (2 March 2026)", "en")
                if c.shape == "state"]
    assert (state.subject, state.kind, state.value) == ("idris", "home", frozenset({"cardiff"}))


WORDS = st.sampled_from(["Noor", "Noor's", "works", "at", "lives", "in", "quit", "left", "the",
                         "pharmacy", "Cardiff", "used", "to", "will", "also", "no", "longer",
                         ".", "moved", "from", "is", "dating"])
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
