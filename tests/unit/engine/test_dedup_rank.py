"""Dedup's rank rule, on probes of our own ("Noa" / ノア): a post said with a grade on one side
and without it, or with another grade, is never a duplicate; the same grade on both sides, a
paraphrase frame of the grade ("heads" / "is head of") and a grade inside a name are not read."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_polarity import polarity_changed
from omoide.engine.classify.dedup_rank import rank_changed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa is a senior data analyst at a bank.", "Noa is a data analyst at a bank."),
        (
            "Noa works as a staff nurse on a cardiology ward.",
            "Noa works as a junior staff nurse on a cardiology ward.",
        ),
        (
            "Noa is a Principal Scientific Officer at a lab.",
            "Noa is a Scientific Officer at a lab.",
        ),
        ("Noa is a magistrate in Leeds.", "Noa is chair of magistrates in Leeds."),
        (
            "Noa has been a churchwarden since 2019.",
            "Noa has been head of churchwardens since 2019.",
        ),
        ("Noa is a trainee surveyor in Bath.", "Noa is a surveyor in Bath."),
        ("Noa co-founded a cycling club.", "Noa founded a cycling club."),
        ("Noa is an associate professor of history.", "Noa is a professor of history."),
        (
            "Noa is the deputy editor of a local paper.",
            "Noa is the acting editor of a local paper.",
        ),
        ("Noa works as a lawyer in a small firm.", "Noa works as a senior lawyer in a small firm."),
    ],
)
def test_a_post_with_another_grade_is_a_change_in_english(first: str, second: str) -> None:
    assert rank_changed(first, second) and rank_changed(second, first)
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは自治会の副会長をしている。", "ノアは自治会の会長をしている。"),
        ("ノアは商店街の振興組合で理事をしている。", "ノアは商店街の振興組合で理事長をしている。"),
        ("ノアは文化祭の実行委員を務めている。", "ノアは文化祭の実行委員長を務めている。"),
        ("ノアは和菓子屋で職人の見習いをしている。", "ノアは和菓子屋で職人をしている。"),
        ("ノアは去年、主任に昇進した。", "ノアは去年、係長に昇進した。"),
        ("ノアは市役所で課長代理をしている。", "ノアは市役所で課長をしている。"),
        ("ノアは茶道の準師範だ。", "ノアは茶道の師範だ。"),
    ],
)
def test_a_post_with_another_grade_is_a_change_in_japanese(first: str, second: str) -> None:
    assert rank_changed(first, second) and rank_changed(second, first)
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa heads the design team.", "Noa is head of the design team."),
        ("Noa chairs the residents' association.", "Noa is chair of the residents' association."),
        ("Noa leads a team of six.", "Noa is the lead of a team of six."),
        ("Noa is headteacher of a village school.", "Noa is the head of a village school."),
        ("Noa is a senior nurse at a hospice.", "Noa works as a senior nurse in a hospice."),
        ("Noa teaches at Elmwood Junior School.", "Noa is a teacher at Elmwood Junior School."),
        ("Noa takes acting classes on Mondays.", "Noa takes drama classes on Mondays."),
        (
            "Noa is leaving her accounts assistant job in May.",
            "Noa leaves her job as an accounts assistant in May.",
        ),
        ("Noa's rent is higher than last year.", "Noa pays more rent than last year."),
        ("Noa is a senior nurse.", "ノアはベテランの看護師だ。"),
    ],
)
def test_the_same_grade_a_frame_or_a_name_is_no_rank_change_in_english(
    first: str, second: str
) -> None:
    assert not rank_changed(first, second) and not rank_changed(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアの夫は自治会長だ。", "ノアの夫は自治会の会長を務めている。"),
        ("ノアの長男は春に就職する。", "ノアの長男は来年の春に就職する。"),
        ("ノアはカフェの開店を準備している。", "ノアはカフェを開店している。"),
        ("ノアは副業で翻訳をしている。", "ノアは会社員で、副業で翻訳をしている。"),
        ("ノアは自治会の副会長だ。", "ノアは自治会で副会長を務めている。"),
        ("ノアは長野の病院で働いている。", "ノアは長野県の病院に勤めている。"),
    ],
)
def test_the_same_grade_or_no_grade_is_no_rank_change_in_japanese(first: str, second: str) -> None:
    assert not rank_changed(first, second) and not rank_changed(second, first)
