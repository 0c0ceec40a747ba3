"""Dedup's decision with the real bundled embedders: the learned judge where it can run, the
veto alone where it cannot, and the part embedder built once, on the first pair that needs it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bundled_models import bundled

from omoide.embed import Embedder
from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import pair_notation
from omoide.service.dedup import DedupDecider, load_dedup_models

pytestmark = pytest.mark.slow


def cosine(embedder: Embedder, a: str, b: str) -> float:
    vectors = embedder.embed_passages([a, b])
    return float(vectors[0] @ vectors[1])


def test_the_hashing_embedder_keeps_the_veto_alone() -> None:
    decider = DedupDecider(HashEmbedder(), bundled)
    assert decider.model is None
    assert decider.is_duplicate("The user has two sisters.", "The user has 2 sisters.", 0.99)
    assert not decider.is_duplicate("The user has two sisters.", "The user has 3 sisters.", 0.99)


def test_e5_without_a_way_to_build_use_keeps_the_veto_alone() -> None:
    assert DedupDecider(bundled("e5")).model is None


def test_both_bundled_embedders_have_a_judge_on_use_parts() -> None:
    models = load_dedup_models()
    for name in ("e5", "use"):
        model, part_name = models[bundled(name).model_id]
        assert part_name == "use" and model.part_embedder == bundled("use").model_id


def test_the_part_embedder_is_built_once_and_only_when_a_pair_needs_it() -> None:
    built: list[str] = []

    def counting(name: str) -> Embedder:
        built.append(name)
        return bundled(name)

    e5 = bundled("e5")
    decider = DedupDecider(e5, counting)
    assert decider.model is not None and built == []
    same = "The user swims at the city pool on Tuesdays."
    assert decider.is_duplicate(same, same + " ", 1.0)  # nothing differs: no part to embed
    assert built == []
    old, new = (
        "The user plays the violin in a community orchestra.",
        "The user plays the viola in a community orchestra.",
    )
    assert not decider.is_duplicate(old, new, cosine(e5, old, new))
    paraphrase = "The user is a hospital nurse in Osaka."
    base = "The user works as a nurse at a hospital in Osaka."
    assert decider.is_duplicate(base, paraphrase, cosine(e5, base, paraphrase))
    assert built == ["use"]


def test_a_text_that_reads_the_same_in_one_notation_is_a_duplicate_in_the_band_too() -> None:
    built: list[str] = []

    def counting(name: str) -> Embedder:
        built.append(name)
        return bundled(name)

    decider = DedupDecider(bundled("e5"), counting)
    for old, new in (
        ("The user has two sisters.", "The user has 2 sisters."),
        ("ユーザーは毎日コーヒーを三杯飲んでいます", "ユーザーは毎日コーヒーを3杯飲んでいる"),
    ):
        assert decider.is_duplicate(old, new, 0.5, in_band=True)
    assert built == []  # decided before the judge: no part embedder needed


def test_a_katakana_and_a_hiragana_spelling_of_one_word_is_a_duplicate() -> None:
    e5 = bundled("e5")
    decider = DedupDecider(e5, bundled)
    raw = e5.calibration.to_raw(0.85)
    old = "ユーザーはブドウのタルトを焼くのが得意だ"
    for new, duplicate in (
        ("ユーザーはぶどうのタルトを焼くのが得意です", True),
        ("ユーザーはリンゴのタルトを焼くのが得意だ", False),
    ):
        similarity = cosine(e5, old, new)
        assert similarity > decider.floor(e5.calibration, 0.85)
        assert decider.is_duplicate(old, new, similarity, in_band=similarity <= raw) is duplicate


def test_the_floor_comes_from_the_judge_s_margin_through_the_calibration() -> None:
    e5 = bundled("e5")
    calibration = e5.calibration
    judged = DedupDecider(e5, bundled)
    assert judged.model is not None
    shipped = judged.model.floor_margin  # 0 when no floor held up in training
    assert judged.floor(calibration, 0.85) == calibration.to_raw(0.85 - shipped)
    judged.model = replace(judged.model, floor_margin=0.03, floor_threshold=0.9)
    assert judged.floor(calibration, 0.85) == calibration.to_raw(0.82) < calibration.to_raw(0.85)
    alone = DedupDecider(HashEmbedder(), bundled)
    assert alone.floor(calibration, 0.85) == calibration.to_raw(0.85)
    assert not alone.is_duplicate(
        "The user has two sisters.", "The user has 2 older sisters.", 0.99, in_band=True
    )
    assert alone.is_duplicate(
        "The user has two sisters.", "The user has 2 sisters.", 0.99, in_band=True
    )  # read alike: a duplicate whatever the band


def test_a_plan_called_off_or_done_is_news_not_a_duplicate() -> None:
    decider = DedupDecider(HashEmbedder(), bundled)  # the rule stands before any judge
    plan = "Mina is flying to Lima on 3 March 2026."
    for later in (
        "Mina's 3 March 2026 flight to Lima was cancelled.",
        "Mina said she is no longer flying to Lima on 3 March 2026.",
    ):
        assert not decider.is_duplicate(plan, later, 0.99)
    e5 = bundled("e5")
    judged = DedupDecider(e5, bundled)
    later = "Mina's 3 March 2026 flight to Lima was cancelled."
    assert not judged.is_duplicate(plan, later, cosine(e5, plan, later))


def test_below_the_threshold_a_value_change_is_never_a_duplicate() -> None:
    use = bundled("use")
    decider = DedupDecider(use, bundled)
    assert decider.model is not None
    # the band's own threshold at its lowest: only the value change can keep the pair
    decider.model = replace(decider.model, floor_margin=0.05, floor_threshold=0.0)
    old = "Every weekend the user cycles along the river."
    assert not decider.is_duplicate(
        old, "Every weekend the user cycles along the river with her sister.", 0.75, in_band=True
    )
    assert decider.is_duplicate(
        old, "The user cycles along the river every weekend.", 0.75, in_band=True
    )


class _Counting:
    """The server's embedder, counting its calls (the notation cosine's cost)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.calls = inner, []
        self.model_id, self.calibration = inner.model_id, inner.calibration

    def embed_passages(self, texts: list[str]) -> list:
        self.calls.append(list(texts))
        return self.inner.embed_passages(texts)


def test_the_notation_cosine_costs_one_call_only_when_the_notation_rewrote_a_text() -> None:
    e5 = bundled("e5")
    counting = _Counting(e5)
    decider = DedupDecider(counting, bundled)  # type: ignore[arg-type]
    assert decider.model is not None and "notation_cosine" in decider.model.features
    old, new = "Ken swims at the pool.", "Ken swims at the lake."
    decider.is_duplicate(old, new, cosine(e5, old, new))
    assert counting.calls == []  # nothing rewritten: the raw cosine is read
    old, new = "The user has three children.", "The user has 3 daughters."
    assert decider.notation_cosine((old, new), (old, new)) is None
    decider.is_duplicate(old, new, cosine(e5, old, new))
    assert len(counting.calls) == 1 and len(counting.calls[0]) == 2
    counting.calls.clear()  # read alike ("4 kids" is "4 children"): decided before the judge
    old, new = "The user has four children.", "The user has 4 kids."
    assert decider.is_duplicate(old, new, cosine(e5, old, new))
    assert counting.calls == []
    old, new = "The user has three children.", "The user has 3 sons."
    decider.is_duplicate(old, new, cosine(e5, old, new))  # "3 children" was embedded above:
    assert len(counting.calls) == 1 and len(counting.calls[0]) == 1  # only "3 sons" is new


def test_every_candidate_of_one_create_costs_one_call_and_reads_the_same_values() -> None:
    e5 = bundled("e5")
    counting = _Counting(e5)
    decider = DedupDecider(counting, bundled)  # type: ignore[arg-type]
    # names, not numbers: a number replaced is decided before the judge (value_replaced)
    new = "The user has two cats named Miso and Kuro."
    olds = [f"The user has two cats named Miso and {name}." for name in ("Tama", "Sora", "Hana")]
    candidates = [(old, cosine(e5, old, new), False) for old in olds]
    counting.calls.clear()
    assert decider.first_duplicate(new, candidates) is None
    # one call: the three stored texts and the new one once (read the same for each)
    assert len(counting.calls) == 1 and len(counting.calls[0]) == 4
    reads = [pair_notation(old, new) for old in olds]
    batched = decider.notation_cosines([(old, new) for old in olds], reads)
    one_by_one = [
        decider.notation_cosine((old, new), read) for old, read in zip(olds, reads, strict=True)
    ]
    assert batched == pytest.approx(one_by_one, abs=1e-6)
    parts = decider.part_cosines(reads)
    assert parts == pytest.approx([decider.part_cosine(*read) for read in reads], abs=1e-6)


def test_the_first_duplicate_is_the_first_candidate_the_judge_keeps() -> None:
    e5 = bundled("e5")
    decider = DedupDecider(e5, bundled)
    new = "The user has two sisters."
    changed, same = "The user has 3 sisters.", "The user has 2 sisters."
    pairs = [(changed, cosine(e5, changed, new), False), (same, cosine(e5, same, new), False)]
    assert decider.first_duplicate(new, pairs) == 1
    assert decider.first_duplicate(new, pairs[:1]) is None
    assert decider.first_duplicate(new, []) is None


def test_above_the_threshold_a_number_or_weekday_replaced_is_never_a_duplicate() -> None:
    use = bundled("use")
    decider = DedupDecider(use, bundled)
    assert decider.model is not None
    # the judge's threshold at its lowest: only the rule can keep the pair
    decider.model = replace(decider.model, threshold=0.0)
    old = "The user's choir rehearses on Wednesdays in the church hall."
    assert not decider.is_duplicate(
        old, "The user's choir rehearses on Fridays in the church hall.", 0.99
    )
    assert not decider.is_duplicate(
        "The user's bus pass costs £60 a month.", "The user's bus pass costs £65 a month.", 0.99
    )
    # the same weekday said in another order is still the judge's to weigh (and drop)
    assert decider.is_duplicate(
        old, "In the church hall, the user's choir rehearses on Wednesdays.", 0.99
    )
