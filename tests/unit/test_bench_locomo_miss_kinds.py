"""The LoCoMo miss sorter (``bench/locomo_miss_kinds.py``) and the turn keyword probe
(``bench/locomo_turn_keywords.py``): where a gold answer is written in the raw conversation,
what an evidence turn outside the budget looks like, and which keyword rows get the turn before."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_miss_kinds as kinds  # noqa: E402
import locomo_turn_keywords as keywords  # noqa: E402
from lib.datasets import LocomoConversation, LocomoQA, LocomoSession, LocomoTurn  # noqa: E402


def conversation() -> LocomoConversation:
    first = (
        LocomoTurn("D1:1", 1, "Ann", "What are your cats called?"),
        LocomoTurn("D1:2", 1, "Bob", "Luna and Oliver!"),
        LocomoTurn("D1:3", 1, "Ann", "Cute. Look at this.", image_caption="a red kite"),
        LocomoTurn("D1:4", 1, "Bob", "I bought a kite at the fair. Want one?"),
    )
    moved = "We moved to Osaka last spring, and after a few weeks of boxes and trains we love it."
    second = (LocomoTurn("D2:1", 2, "Ann", moved),)
    return LocomoConversation(
        "1",
        "Ann",
        "Bob",
        (
            LocomoSession(1, datetime(2023, 5, 8, 13, 56), "1:56 pm on 8 May, 2023", first),
            LocomoSession(2, datetime(2023, 6, 1, 9, 0), "9:00 am on 1 June, 2023", second),
        ),
    )


def qa(answer: str, *evidence: str) -> LocomoQA:
    return LocomoQA("q?", answer, evidence, 4)


def test_the_gold_is_placed_where_the_conversation_writes_it() -> None:
    conv = conversation()
    assert kinds.containment_kind(qa("Luna and Oliver", "D1:2"), conv) == "in_evidence_turn"
    assert kinds.containment_kind(qa("a red kite", "D1:3"), conv) == "in_caption"
    assert kinds.containment_kind(qa("at the fair", "D1:2"), conv) == "in_neighbour"
    assert kinds.containment_kind(qa("8 May, 2023", "D1:2"), conv) == "in_session_date"
    assert kinds.containment_kind(qa("Osaka", "D1:1"), conv) == "elsewhere"
    assert kinds.containment_kind(qa("two cats", "D1:2"), conv) == "not_verbatim"


def test_a_turn_after_a_question_is_a_reply_and_a_session_start_is_not() -> None:
    conv = conversation()
    assert kinds.turn_traits("D1:2", conv) == ["reply", "short"]
    assert kinds.turn_traits("D1:3", conv) == ["photo", "short"]
    assert kinds.turn_traits("D2:1", conv) == ["plain"]


def test_a_keyword_row_gets_the_turn_before_it_in_its_session_only() -> None:
    rows = [
        (1, 7, "What is it?", "What is it"),
        (2, 7, "A kite.", "A kite"),
        (3, 7, "Nice.", "Nice"),
        (4, 8, "Hello?", "Hello"),
    ]
    assert keywords.expanded(rows, "prev") == [("What is it A kite", 2), ("A kite Nice", 3)]
    assert keywords.expanded(rows, "prev_question") == [("What is it A kite", 2)]
