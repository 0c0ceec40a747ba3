"""The companion probe (``bench/companion_property.py``): the offline re-rank is the engine's
blend, a per-candidate weight reorders only by the weights it is given, and the sought note's
language follows the query's kind."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import companion_property as probe  # noqa: E402


def _rec() -> dict[str, Any]:
    # fused order 1, 2, 3; the companion prefers 3, then 2, then 1; note 3 is the relevant one
    return {
        "query": "tea",
        "head": [[1, 0.9], [2, 0.8], [3, 0.7]],
        "use": {"1": 0.1, "2": 0.5, "3": 0.9},
        "e5": {"1": 0.9, "2": 0.8, "3": 0.7},
        "texts": {"1": "green tea", "2": "black tea", "3": "緑茶"},
        "relevant_rows": [3],
    }


def test_one_weight_is_the_engines_blend() -> None:
    rec = _rec()
    assert probe.reciprocal_rank(rec, lambda _t: 0.0) == 1 / 3
    assert probe.reciprocal_rank(rec, lambda _t: 0.7) == 1.0


def test_a_weight_per_candidate_script() -> None:
    rec = _rec()
    # only the CJK candidate takes the companion's view: it passes note 2 (0.8 > 0.5) but not
    # note 1, which keeps its whole fused score (1.0): the weights no longer share one scale
    assert probe.reciprocal_rank(rec, lambda t: 0.8 if probe.language_of(t) else 0.0) == 0.5
    assert probe.cjk_share(rec) == 1 / 3


def test_properties_and_target_language() -> None:
    props = probe.properties(_rec(), "tea")
    assert props["agree_fused_use"] == -1.0  # opposite orders
    assert props["head_other_script"] == 1 / 3
    assert probe.target_group("お茶", "paraphrase") == "ja target"
    assert probe.target_group("tea", "crosslingual") == "ja target"
    assert probe.target_group("tea", "paraphrase") == "en target"
    assert probe.target_group("tea", "keyword") is None


def test_rules_on_the_length_of_the_heads_latin_notes() -> None:
    rec = _rec()
    long_text = " ".join(["word"] * 25)
    rec["texts"]["1"] = long_text
    assert probe.latin_words(rec) == [25, 2]  # the CJK note is not counted
    # median of 25 and 2 words is 13.5: below 20 words the head takes b, at 10 it takes a
    assert probe._by_latin_length(rec, (20, 0.1, 0.5))("") == 0.5
    assert probe._by_latin_length(rec, (10, 0.1, 0.5))("") == 0.1
    # one of three notes is long Latin: a third of the way from b (0.5) to a (0.2)
    assert probe._by_long_share(rec, (20, 0.2, 0.5))("") == 0.4
    assert probe.sought_group(rec) == "CJK ≤ 45 chars"
    rec["relevant_rows"] = [1]
    assert probe.sought_group(rec) == "Latin ≥ 21 words"


def test_a_silent_candidate_takes_the_heads_median_cosine() -> None:
    rec = _rec()
    rec["texts"]["3"] = " ".join(["word"] * 25)  # the relevant note, now long Latin
    assert probe.reciprocal_rank(rec, probe._constant(rec, (1.0,))) == 1.0
    # silenced at the head's median cosine (0.5, note 2's own): it ties note 2, and the tie
    # keeps the fused order, so it comes second
    assert probe.reciprocal_rank(rec, probe._silent_on_long(rec, (20, 1.0))) == 0.5


def test_a_note_read_by_sentence() -> None:
    assert probe.note_sentences("I moved to Osaka. The rent is lower there!") == [
        "I moved to Osaka.",
        "The rent is lower there!",
    ]
    assert probe.note_sentences("大阪に引っ越した。家賃が安い。") == [
        "大阪に引っ越した。",
        "家賃が安い。",
    ]
    assert probe.note_sentences("One sentence only.") == []
    sentences = [0.2, 0.6, 0.4]
    assert probe.note_cosine(0.5, sentences, "whole") == 0.5
    assert probe.note_cosine(0.5, sentences, "max") == 0.6
    assert probe.note_cosine(0.5, sentences, "top2") == 0.5
    assert 0.4 <= probe.note_cosine(0.5, sentences, "soft") <= 0.6
    assert probe.note_cosine(0.7, sentences, "whole∨max") == 0.7
    assert probe.note_cosine(0.5, [0.9], "max") == 0.5  # one sentence: read whole
    assert probe.note_group(" ".join(["word"] * 21)) == "long-EN"
    assert probe.note_group("green tea") == "short-EN"
    assert probe.note_group("緑茶") == "other"
