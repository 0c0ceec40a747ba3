"""The chat proxy's memory prompt (engine/chat_prompt.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.chat_prompt import Recalled, assemble_chat_prompt
from omoide.engine.context import BlockText
from omoide.engine.lang import Lang
from omoide.engine.tokens import estimate_tokens

WHEN = datetime(2026, 3, 1, tzinfo=UTC)


def _prompt(budget: int, **kw: object) -> object:
    args: dict[str, object] = {
        "persona": "rin",
        "lang": Lang.EN,
        "budget_tokens": budget,
        "persona_state": {"mood": "calm"},
        "user_state": {"name": "Laura"},
        "blocks": [BlockText("style", "Speak softly. " * 10, 5, 8)],
        "memories": [
            Recalled("m1", "Laura lives in Sapporo", WHEN),
            Recalled(
                "m2", "Laura worked in Kyoto", WHEN, valid_until=datetime(2026, 5, 2, tzinfo=UTC)
            ),
            Recalled("episode:3", "[2026-03-01]\nLaura: I love snow", WHEN, excerpt=True),
        ],
    }
    args.update(kw)
    return assemble_chat_prompt(**args)  # type: ignore[arg-type]


def test_sections_blocks_cut_and_validity_marked() -> None:
    p = _prompt(1000)
    assert p.text.splitlines()[:4] == [
        "# What rin remembers (Omoide)",
        "## Persona",
        "You are rin.",
        "- mood: calm",
    ]
    assert "- [2026-03-01, no longer true since 2026-05-02] Laura worked in Kyoto" in p.text
    assert "- [2026-03-01, conversation] Laura: I love snow" in p.text
    assert estimate_tokens(p.text.split("### style\n")[1].split("\n")[0]) <= 8
    assert p.memories == ("m1", "m2", "episode:3") and p.blocks == ("style",)


def test_memories_go_first_then_blocks_when_over_budget() -> None:
    p = _prompt(60)
    assert p.memories == () and p.tokens <= 60
    assert p.user_keys == ("name",)


def test_nothing_known_means_no_prompt() -> None:
    p = _prompt(500, persona_state={}, user_state={}, blocks=[], memories=[])
    assert p.text == "" and p.tokens == 0


def test_japanese_wording() -> None:
    p = _prompt(1000, lang=Lang.JA)
    assert "ユーザーを「Laura」と呼んでください。" in p.text and "2026-05-02 から無効" in p.text


@settings(max_examples=100, deadline=None)
@given(st.integers(40, 400), st.lists(st.text(min_size=1, max_size=200), max_size=8))
def test_prompt_never_exceeds_its_budget(budget: int, texts: list[str]) -> None:
    p = _prompt(budget, memories=[Recalled(f"m{i}", t, WHEN) for i, t in enumerate(texts)])
    assert p.tokens <= budget


def test_an_end_past_the_calendar_in_the_zone_is_dated_by_its_utc_day() -> None:
    """A superseded fact whose valid_until is 9999-12-31T23:59:59Z, shown in UTC+14: its local
    day is past the calendar (an OverflowError, a 500, before); its UTC day is shown."""
    from zoneinfo import ZoneInfo

    end = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
    p = _prompt(
        1000,
        memories=[Recalled("m1", "Laura lives in Sapporo", WHEN, valid_until=end)],
        tz=ZoneInfo("Pacific/Kiritimati"),
    )
    assert "no longer true since 9999-12-31] Laura lives in Sapporo" in p.text  # type: ignore[attr-defined]


def test_a_plan_given_up_before_it_began_is_marked_cancelled_not_ended() -> None:
    """Closed at its planned start (ahead of now): "no longer true since" that day would say
    it held until then."""
    start = datetime(2027, 3, 1, tzinfo=UTC)
    plan = Recalled("m1", "Laura moves to Berlin", start, valid_until=start, never_held=True)
    en = _prompt(1000, memories=[plan])
    ja = _prompt(1000, memories=[plan], lang=Lang.JA)
    assert "- [2027-03-01, planned, cancelled before it began] Laura moves" in en.text  # type: ignore[attr-defined]
    assert "no longer true" not in en.text  # type: ignore[attr-defined]
    assert "[2027-03-01, 予定、始まる前に取り消し]" in ja.text  # type: ignore[attr-defined]


def test_the_closing_line_speaks_of_memories_only_when_some_are_shown() -> None:
    shown = _prompt(1000)
    assert shown.text.endswith("\nUse these memories when they help; do not recite them.")
    for no_memories in (_prompt(1000, memories=[]), _prompt(60)):  # none found / none fitted
        assert no_memories.memories == ()
        assert no_memories.text.endswith("\nUse this when it helps; do not recite it.")
        assert "memories" not in no_memories.text.lower()
        assert no_memories.tokens <= 1000
    ja = _prompt(1000, lang=Lang.JA, memories=[])
    assert ja.text.endswith("\n役立つときに使い、そのまま読み上げないでください。")
    assert "記憶を使い" not in ja.text
