"""The offline 3-op classifier: one case per signal (from our own pairs, not the dev set),
the protocol wrapper, totality, and the benchmark targets on the shared dev set."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.classify import Candidate, OfflineClassifier, Relation, Verdict, classify_pair

CON, EXT, IND = Relation.CONTRADICTORY, Relation.EXTENDABLE, Relation.INDEPENDENT
REPO = Path(__file__).resolve().parents[3]
OUR_CASES = Path(__file__).with_name("classify_cases.jsonl")
DEV = REPO.parent / "shared" / "bench" / "classify" / "dev.jsonl"
# Characters that reach the cue patterns: particles, negation, counters, quotes, "$", "'".
_FUZZ_ALPHABET = "ab Z1$,.'-ユーザーは私の好きやめたもうない歳回円「」、"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # negation and quitting
        pytest.param(
            "User is a vegetarian.",
            "User is no longer vegetarian and eats chicken again.",
            CON,
            id="en-no-longer",
        ),
        pytest.param(
            "私はタバコを吸っている",
            "私はもうタバコは吸っていない",
            CON,
            id="ja-mou-nai",
        ),
        pytest.param(
            "ユーザーはピアノ教室に通っている",
            "ユーザーは先月ピアノ教室をやめた",
            CON,
            id="ja-yameta",
        ),
        pytest.param(
            "User is planning to visit Rome in July.",
            "User postponed her Rome trip until next year.",
            CON,
            id="en-postponed-plan",
        ),
        # moves
        pytest.param(
            "User lives in Tokyo.",
            "User moved to Osaka last month for a new job.",
            CON,
            id="en-move",
        ),
        pytest.param(
            "ユーザーは東京に住んでいる", "ユーザーは先月大阪に引っ越した", CON, id="ja-move"
        ),
        # quantities
        pytest.param("User is 29 years old.", "User turned 30 in March.", CON, id="en-age"),
        pytest.param("ユーザーは29歳", "ユーザーは先週30歳の誕生日を迎えた", CON, id="ja-age"),
        pytest.param(
            "User goes to the gym twice a week.",
            "User now goes to the gym every day.",
            CON,
            id="en-frequency",
        ),
        pytest.param(
            "ユーザーの家賃は月8万円",
            "ユーザーの家賃は更新で月9万円に値上がりした",
            CON,
            id="ja-price",
        ),
        pytest.param(
            "User has more than 20 houseplants.",
            "User has 27 houseplants, mostly ferns.",
            EXT,
            id="en-consistent-amount",
        ),
        pytest.param(
            "ユーザーは毎日30分以上歩いている",
            "ユーザーは毎日40分ほど近所の公園を歩いている",
            EXT,
            id="ja-consistent-amount",
        ),
        # narrower case and added detail
        pytest.param(
            "User likes music.", "Lately User is especially into jazz piano.", EXT, id="en-narrower"
        ),
        pytest.param(
            "ユーザーはお菓子作りが好き",
            "ユーザーは特にチーズケーキを焼くのが好き",
            EXT,
            id="ja-narrower",
        ),
        pytest.param(
            "ユーザーは猫を飼っている",
            "ユーザーの猫は茶トラで、名前はモモ",
            EXT,
            id="ja-about-the-cat",
        ),
        pytest.param(
            "User doesn't drink coffee.",
            "User doesn't drink coffee because caffeine keeps her awake at night.",
            EXT,
            id="en-same-negation-adds-reason",
        ),
        # different subjects
        pytest.param(
            "User's brother is a nurse in Osaka.",
            "User's cousin is a nurse in Osaka.",
            IND,
            id="en-brother-vs-cousin",
        ),
        pytest.param(
            "ユーザーの兄は大阪で看護師をしている",
            "ユーザーのいとこは大阪で看護師をしている",
            IND,
            id="ja-brother-vs-cousin",
        ),
        pytest.param(
            "Haru's favorite color is blue.",
            "User's favorite color is green.",
            IND,
            id="en-persona-vs-user",
        ),
        pytest.param(
            "ハルは夏が好きだと言っていた",
            "ユーザーは夏が苦手",
            IND,
            id="ja-persona-vs-user",
        ),
        # past fact next to a present fact
        pytest.param(
            "User's first car was a blue Toyota Corolla.",
            "User currently drives a gray Mazda CX-5.",
            IND,
            id="en-first-car-vs-current-car",
        ),
        pytest.param(
            "ユーザーが初めて買った車は青いカローラだった",
            "ユーザーは今、灰色のマツダに乗っている",
            IND,
            id="ja-first-car-vs-current-car",
        ),
        # a second item, not a replacement
        pytest.param(
            "ユーザーはラーメンが好き",
            "ユーザーはお寿司も好き",
            IND,
            id="ja-second-preference",
        ),
        pytest.param(
            "User drinks coffee every morning.",
            "User drinks tea in the afternoon.",
            IND,
            id="en-second-habit",
        ),
        # changes with no negation word at all
        pytest.param(
            "User uses an Android phone.",
            "User switched to an iPhone last week.",
            CON,
            id="en-switch",
        ),
        pytest.param("User is single.", "User got married to Ken in June.", CON, id="en-status"),
        pytest.param(
            "ユーザーはコーヒーが苦手",
            "ユーザーは最近コーヒーが好きになって、毎朝飲んでいる",
            CON,
            id="ja-preference-reversed",
        ),
        pytest.param(
            "ハルはユーザーに敬語で話している",
            "ハルはユーザーの頼みでタメ口で話すようになった",
            CON,
            id="ja-replaced-value",
        ),
    ],
)
def test_classify_pair_judges_each_signal_on_our_pairs(
    old: str, new: str, expected: Relation
) -> None:
    relation, confidence, reason = classify_pair(old, new)
    assert (relation, bool(reason)) == (expected, True)
    assert 0.0 < confidence <= 1.0


def test_classify_pair_never_contradicts_our_non_contradictory_pairs() -> None:
    rows = [json.loads(line) for line in OUR_CASES.read_text(encoding="utf-8").splitlines()]
    wrong = [
        r["id"]
        for r in rows
        if r["label"] != CON and classify_pair(r["old"], r["new"], lang=r["lang"])[0] is CON
    ]
    assert wrong == []


def test_classify_pair_leaves_pairs_in_two_languages_independent() -> None:
    relation, _, reason = classify_pair("User lives in Tokyo.", "ユーザーは大阪に引っ越した")
    assert (relation, reason) == (IND, "different languages: not compared offline")


def test_offline_classifier_returns_one_verdict_per_candidate_in_order() -> None:
    candidates = [
        Candidate("k1", "User lives in Tokyo.", 0.71),
        Candidate("k2", "User's brother lives in Tokyo.", 0.64),
    ]
    verdicts = OfflineClassifier().classify("User moved to Osaka last month.", candidates)
    assert [(v.key, v.relation) for v in verdicts] == [("k1", CON), ("k2", IND)]
    assert all(isinstance(v, Verdict) for v in verdicts)


def test_offline_classifier_ignores_candidate_similarity() -> None:
    new = "User turned 30 in March."
    low = OfflineClassifier().classify(new, [Candidate("k", "User is 29 years old.", 0.01)])
    high = OfflineClassifier().classify(new, [Candidate("k", "User is 29 years old.", 0.99)])
    assert low == high


def test_offline_classifier_returns_nothing_for_no_candidates() -> None:
    assert OfflineClassifier().classify("User likes tea.", []) == []


@settings(max_examples=200, deadline=None)
@given(
    old=st.text(alphabet=st.sampled_from(_FUZZ_ALPHABET), max_size=30),
    new=st.text(max_size=30),
    lang=st.sampled_from(["auto", "en", "ja"]),
)
def test_classify_pair_is_total_and_deterministic(old: str, new: str, lang: str) -> None:
    first = classify_pair(old, new, lang=lang)
    assert first == classify_pair(old, new, lang=lang)
    assert first[0] in Relation
    assert 0.0 <= first[1] <= 1.0


def _bench_module() -> ModuleType:
    if str(REPO / "bench") not in sys.path:
        sys.path.insert(0, str(REPO / "bench"))  # bench scripts import their _classify_common
    spec = importlib.util.spec_from_file_location("bench_classify", REPO / "bench" / "classify.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not DEV.is_file(), reason=f"shared bench data not found at {DEV}")
def test_offline_engine_meets_the_issue_targets_on_the_shared_dev_set() -> None:
    bench = _bench_module()
    report = bench.evaluate(bench.load_pairs(DEV), OfflineClassifier())
    assert report["macro_f1"] >= 0.80
    assert report["per_label"]["CONTRADICTORY"]["precision"] >= 0.90


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        (
            "美咲さんは看護師試験の勉強中で、来月受験する予定。",
            "美咲さんは去年、保育士試験に合格した。",
            "ja",
        ),
        (
            "Mia is studying for the cardiology board exam.",
            "Mia passed the anatomy exam last spring.",
            "en",
        ),
    ],
)
def test_completing_another_thing_of_the_kind_ends_no_pursuit(
    old: str, new: str, lang: str
) -> None:
    """Another exam of the same kind passed is a second occasion, not the pursued one done."""
    _, _, reason = classify_pair(old, new, lang=lang)
    assert not reason.startswith("completed")


def test_completing_the_pursued_thing_still_ends_it() -> None:
    relation, _, reason = classify_pair(
        "Mia is studying for the bar exam.", "Mia passed the bar exam.", lang="en"
    )
    assert relation is Relation.CONTRADICTORY
    assert reason.startswith("completed")
