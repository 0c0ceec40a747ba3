"""Dedup's twenty-fourth round, on probes of our own ("Noa" / ノア): a passive read in the active
voice, the user's reporting frames, "works as", acronyms with a digit or a plural, a letter and
a number, a clipped word and a particle casual Japanese drops are read alike; who did what to
whom, another number, a word that only starts like another and a particle in place of another
stay apart; the judge's ``changed_content`` counts the content words of a change."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation, swapped_parts
from omoide.engine.classify.dedup_abbrev import clipped, numbered
from omoide.engine.classify.dedup_content import changed_content
from omoide.engine.classify.dedup_en_frames import en_frames
from omoide.engine.classify.dedup_spans import dropped_particle
from omoide.engine.classify.dedup_voice import active_voice


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # a passive against the same verb in the active voice, at the same tense
        ("Noa leads a team of six nurses.", "A team of six nurses is led by Noa."),
        ("Noa's landlord raised the rent in May.", "The rent was raised by Noa's landlord in May."),
        (
            "Noa's aunt has taught the choir since 2019.",
            "The choir has been taught by Noa's aunt since 2019.",
        ),
        ("Noa keeps bees in the orchard.", "Bees are kept by Noa in the orchard."),
        # the user's frames
        ("The user is colour-blind.", "The user says they are colour-blind."),
        (
            "The user's flat is on the fourth floor.",
            "The user mentioned their flat is on the fourth floor.",
        ),
        ("The user works as a dentist in Leeds.", "The user is a dentist in Leeds."),
        ("Noa works as a locksmith.", "Noa is a locksmith."),
        ("The user keeps their tools in the shed.", "The user keeps the user's tools in the shed."),
        # acronyms with a digit or a plural, a letter and a number, a clipped word
        ("Noa has type 1 diabetes.", "Noa has T1D."),
        ("Noa turned on two-factor authentication.", "Noa turned on 2FA."),
        ("Noa reviews pull requests before lunch.", "Noa reviews PRs before lunch."),
        ("Noa's son is in Year 4.", "Noa's son is in Y4."),
        ("Noa coaches the under-12 team.", "Noa coaches the U12 team."),
        ("Noa is a marine engineer.", "Noa is a marine eng."),
        ("Noa runs the mass spectrometer.", "Noa runs the mass spec."),
        # a particle casual Japanese drops
        ("ノアは毎朝コーヒーを買う。", "ノアは毎朝コーヒー買う。"),
        ("ノアはスマホは持っていない。", "ノアはスマホ持っていない。"),
        ("ノアは駅前でアルバイトをしている。", "ノアは駅前でアルバイトしている。"),
        ("ノアのお母さんは看護師だ。", "ノアのお母さんは看護師だ。"),
    ],
)
def test_one_statement_in_other_words_reads_alike(first: str, second: str) -> None:
    assert pair_notation(first, second)[0] == pair_notation(first, second)[1]
    assert pair_notation(second, first)[0] == pair_notation(second, first)[1]


def test_who_did_what_to_whom_is_kept() -> None:
    a, b = pair_notation("The dog bit Noa's son.", "The dog was bitten by Noa's son.")
    assert a != b
    assert swapped_parts(a, b) is not None
    # another tense is not read away
    assert (
        active_voice("Noa raises the rent.", "The rent was raised by Noa.")
        == "The rent was raised by Noa."
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa's son is in Year 4.", "Noa's son is in Y3."),
        ("Noa gets migraines with aura.", "Noa gets migraines without aura."),
        ("Noa runs a bus company.", "Noa runs a business company."),
        ("Noa is a nurse at the clinic.", "Noa is a nursery nurse at the clinic."),
        ("Noa has type 1 diabetes.", "Noa has T2D."),
        ("Noa is a part-time barista.", "Noa is a parttime barista."),
    ],
)
def test_another_number_or_word_is_not_read_as_an_abbreviation(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    if first.endswith("part-time barista."):
        assert a == b  # joined, not clipped to "part"
    else:
        assert a != b


def test_frames_only_for_the_user() -> None:
    assert en_frames("Tom says he is colour-blind.") == "Tom said he is colour-blind."
    assert en_frames("my parents sold their house.") == "my parents sold their house."
    assert en_frames("I mentioned they testify in court.") == "I testifies in court."
    assert clipped("Noa is a marine eng.", "Noa is a marine engineer.") == "Noa is a marine eng."
    assert numbered("Noa is in Y3.", "Noa is in Year 3 and Group 3.") == "Noa is in Y3 and Group 3."


def test_a_particle_in_place_of_another_is_not_dropped() -> None:
    assert dropped_particle("兄が弟を叩いた", "兄を弟が叩いた") == "兄を弟が叩いた"
    a, b = pair_notation("ノアは毎朝コーヒーを買う。", "ノアは毎朝紅茶を買う。")
    assert find_dedup_change(a, b) is not None


def test_changed_content_counts_content_words_of_the_change() -> None:
    assert changed_content("vegan", "vegetarian", japanese=False) == 1.0
    assert changed_content("is led by", "leads", japanese=False) == pytest.approx(2 / 4)
    assert changed_content("", "", japanese=False) == 0.0
    assert changed_content("です", "だ", japanese=True) == 0.0
    assert changed_content("紅茶", "コーヒー", japanese=True) == 1.0
    # a word in kana is content, an ending is not
    assert changed_content("こむぎ", "おもち", japanese=True) == 1.0
    assert changed_content("よく", "たまに", japanese=True) == 1.0
    assert changed_content("る", "ます", japanese=True) == 0.0
