"""Consolidation's probe options (round 14): naming the speaker once and cutting a turn at a
topic shift. Both are off by default; the default notes are what test_consolidate.py checks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from omoide.engine.consolidate import EventText, OfflineConsolidator, consolidate_offline
from omoide.engine.consolidate.rewrite import to_third_person

SAID = datetime(2023, 5, 8, 13, 56)


def test_to_third_person_names_the_speaker_once_when_asked() -> None:
    sentence = "I love my dog and I'm proud of me."
    assert to_third_person(sentence, "Nora", japanese=False) == (
        "Nora loves Nora's dog and Nora is proud of Nora.")
    assert to_third_person(sentence, "Nora", japanese=False, named=False) == (
        "Nora loves their dog and they are proud of them.")
    assert to_third_person(sentence, "Nora", japanese=False, named=True) == (
        "They love their dog and they are proud of them.")


def test_japanese_keeps_the_name_when_named_once_is_asked() -> None:
    assert to_third_person("私は猫が好き。", "花子", japanese=True, named=True) == (
        to_third_person("私は猫が好き。", "花子", japanese=True))


def test_a_note_named_once_says_the_name_in_its_first_sentence_only() -> None:
    events = [EventText(7, "Nora", "user", "I adopted a puppy last week. I named him Biscuit "
                        "and I walk him every morning before my shift.", SAID),
              EventText(17, "Ken", "user", "Nice!", SAID)]
    (default,) = consolidate_offline(events).notes
    (once,) = consolidate_offline(events, name_once=1).notes
    assert default.content.count("Nora") == 4
    assert once.content.count("Nora") == 1
    assert "They named him Biscuit and they walk him every morning before their shift" in (
        once.content)


def _topic_embed(texts: Sequence[str]) -> np.ndarray:
    """A stand-in embedder: a sentence about the dog points one way, anything else another."""
    return np.array([[1.0, 0.1] if "dog" in t.lower() or "biscuit" in t.lower() else [0.1, 1.0]
                     for t in texts])


EVENTS = [
    EventText(7, "Nora", "user", "My dog Biscuit turned three in March. Biscuit loves the beach. "
              "My sister moved to Lisbon for her new job at a bank.", SAID,
              image_caption="a dog running on the sand"),
    EventText(17, "Ken", "user", "Cool!", SAID),
]


def test_a_turn_is_cut_into_notes_where_its_topic_shifts() -> None:
    notes = consolidate_offline(EVENTS, topic_split=0.5, embed=_topic_embed).notes
    assert [n.source_event_ids for n in notes] == [(7,), (7,)]
    first, second = (n.content for n in notes)
    assert "Biscuit turned three" in first and "Lisbon" not in first
    assert "a dog running on the sand" in first  # the caption goes with its closest run
    assert second.startswith("Nora's sister moved to Lisbon") and "Biscuit" not in second


def test_no_cut_without_an_embedder_or_a_threshold() -> None:
    (one,) = consolidate_offline(EVENTS).notes
    assert consolidate_offline(EVENTS, topic_split=0.5).notes == (one,)
    assert consolidate_offline(EVENTS, topic_split=0.0, embed=_topic_embed).notes == (one,)
    assert "Biscuit" in one.content and "Lisbon" in one.content


def test_the_parts_of_one_turn_take_one_place_of_the_note_budget() -> None:
    made = OfflineConsolidator(topic_split=0.5, embed=_topic_embed).consolidate(
        EVENTS, max_notes=1)
    assert len(made.notes) == 2
    assert {n.source_event_ids for n in made.notes} == {(7,)}
