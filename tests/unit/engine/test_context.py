"""The context text: time-since words in English and Japanese, the user's address, the language
choice, and trimming to the token budget in the documented order."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.context import (
    CONVERSATION_SHARE,
    TRIM_ORDER,
    BlockText,
    ContextInput,
    ContextStats,
    Lang,
    MemoryLine,
    Section,
    TurnLine,
    assemble_context,
    choose_language,
    time_since_words,
    user_address,
)
from omoide.engine.tokens import estimate_tokens

DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("elapsed", "english", "japanese"),
    [
        pytest.param(None, "first session", "初めての会話", id="first"),
        pytest.param(timedelta(seconds=0), "just now", "さっき", id="zero"),
        pytest.param(timedelta(minutes=4, seconds=59), "just now", "さっき", id="under-5-min"),
        pytest.param(timedelta(minutes=-3), "just now", "さっき", id="clock-skew"),
        pytest.param(timedelta(minutes=5), "5 minutes ago", "5分ぶり", id="5-min"),
        pytest.param(timedelta(minutes=59), "59 minutes ago", "59分ぶり", id="59-min"),
        pytest.param(timedelta(hours=1), "1 hour ago", "1時間ぶり", id="1-hour"),
        pytest.param(timedelta(hours=23, minutes=59), "23 hours ago", "23時間ぶり", id="23-hours"),
        pytest.param(DAY, "1 day ago", "1日ぶり", id="1-day"),
        pytest.param(3 * DAY + timedelta(hours=20), "3 days ago", "3日ぶり", id="3-days"),
        pytest.param(13 * DAY, "13 days ago", "13日ぶり", id="13-days"),
        pytest.param(14 * DAY, "2 weeks ago", "2週間ぶり", id="2-weeks"),
        pytest.param(59 * DAY, "8 weeks ago", "8週間ぶり", id="8-weeks"),
        pytest.param(60 * DAY, "2 months ago", "2ヶ月ぶり", id="2-months"),
        pytest.param(364 * DAY, "12 months ago", "12ヶ月ぶり", id="12-months"),
        pytest.param(365 * DAY, "1 year ago", "1年ぶり", id="1-year"),
        pytest.param(800 * DAY, "2 years ago", "2年ぶり", id="2-years"),
    ],
)
def test_time_since_words_reads_naturally_in_both_languages(
    elapsed: timedelta | None, english: str, japanese: str
) -> None:
    assert time_since_words(elapsed, Lang.EN) == english
    assert time_since_words(elapsed, Lang.JA) == japanese


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        pytest.param(
            {"name": "らうらう", "nickname": "らう", "preferred_address": "らうさん"},
            "らうさん",
            id="preferred-address-first",
        ),
        pytest.param({"name": "らうらう", "nickname": "らう"}, "らう", id="then-nickname"),
        pytest.param({"name": "Rau"}, "Rau", id="then-name"),
        pytest.param({"hobby": "tea"}, None, id="none-known"),
    ],
)
def test_user_address_prefers_preferred_address_then_nickname_then_name(
    state: dict[str, str], expected: str | None
) -> None:
    assert user_address(state) == expected


@pytest.mark.parametrize(
    ("setting", "samples", "expected"),
    [
        pytest.param("en", ["らうらう", "緑茶が好き"], Lang.EN, id="en-forced"),
        pytest.param("ja", ["Rau", "likes tea"], Lang.JA, id="ja-forced"),
        pytest.param("auto", ["らうらう"], Lang.JA, id="japanese-name-alone"),
        pytest.param("auto", ["Rau", "緑茶が好き", "大阪に住んでいる"], Lang.JA, id="mostly-ja"),
        pytest.param("auto", ["らうらう", "likes tea", "lives in Osaka"], Lang.EN, id="mostly-en"),
        pytest.param("auto", ["", "  "], Lang.EN, id="nothing-known"),
    ],
)
def test_choose_language_follows_setting_or_majority(
    setting: str, samples: list[str], expected: Lang
) -> None:
    assert choose_language(setting, samples) == expected


def _memory(i: int, *, strength: float = 0.5, words: int = 8) -> MemoryLine:
    content = " ".join(f"word{i}x{j}" for j in range(words))
    return MemoryLine(f"k{i}", content, datetime(2026, 3, 1 + i, tzinfo=UTC), strength)


def _full(lang: Lang = Lang.EN, **overrides: object) -> ContextInput:
    values: dict[str, object] = dict(
        persona="rin",
        language=lang,
        since_last_session=3 * DAY,
        persona_state={"emotion": "joy", "mood": "calm"},
        user_state={"name": "Rau", "nickname": "Ra"},
        recent=[_memory(i) for i in range(4)],
        important=[_memory(10 + i, strength=0.9 - i / 10) for i in range(4)],
        stats=ContextStats(active=42, superseded=3, mean_strength=0.41, links=12),
        blocks=[
            BlockText("user_model", "Likes tea.", 5, 50),
            BlockText("active_context", "Planning a trip.", 1, 50),
        ],
    )
    values.update(overrides)
    return ContextInput(**values)  # type: ignore[arg-type]


def test_context_text_lists_every_section_in_order_when_it_fits() -> None:
    out = assemble_context(_full(), budget_tokens=5000)
    headings = [line for line in out.text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Persona",
        "## User",
        "## Session",
        "## Memory blocks",
        "## Recent memories",
        "## Important memories",
        "## Memory stats",
    ]
    assert 'Address the user as "Ra".' in out.text
    assert "The last session was 3 days ago." in out.text
    assert out.omitted == {}
    assert out.tokens == estimate_tokens(out.text)
    assert out.user_address == "Ra" and out.last_session == "3 days ago"


def test_context_text_is_japanese_when_asked() -> None:
    out = assemble_context(_full(Lang.JA, user_state={"name": "らうらう"}), budget_tokens=5000)
    assert out.text.splitlines()[:3] == [
        "# rin のコンテキスト",
        "## ペルソナ",
        "あなたは rin です。",
    ]
    assert "ユーザーを「らうらう」と呼んでください。" in out.text
    assert "3日ぶりの会話です。" in out.text
    assert "有効な記憶 42 件（置き換え済み 3 件）、平均強度 0.41、リンク 12 件。" in out.text


def test_context_stats_say_one_memory_and_one_link_in_the_singular() -> None:
    """Session 45: the stats line said "1 active memories … 1 links" (``counts.how_many``)."""
    one = ContextStats(active=1, superseded=0, mean_strength=0.5, links=1)
    out = assemble_context(_full(stats=one), budget_tokens=5000)
    assert out.text.splitlines()[-1] == (
        "1 active memory (0 superseded), mean strength 0.50, 1 link."
    )
    ja = assemble_context(_full(Lang.JA, stats=one), budget_tokens=5000)
    said = "有効な記憶 1 件（置き換え済み 0 件）、平均強度 0.50、リンク 1 件。"
    assert ja.text.splitlines()[-1] == said


def test_context_trims_stats_then_weakest_important_first() -> None:
    full = assemble_context(_full(), budget_tokens=5000)
    stats_line = estimate_tokens("## Memory stats") + estimate_tokens(
        "42 active memories (3 superseded), mean strength 0.41, 12 links."
    )
    out = assemble_context(_full(), budget_tokens=full.tokens - stats_line - 1)
    assert out.stats is None
    assert [m.key for m in out.important] == ["k10", "k11", "k12"]
    assert out.omitted == {"stats": 1, "important_memories": 1}
    assert out.tokens <= full.tokens - stats_line - 1


def test_context_trims_sections_in_documented_order() -> None:
    assert list(TRIM_ORDER) == [
        Section.STATS,
        Section.IMPORTANT,
        Section.CONVERSATION,
        Section.RECENT,
        Section.BLOCKS,
        Section.SESSION,
        Section.USER,
        Section.PERSONA,
    ]
    out = assemble_context(_full(), budget_tokens=40)
    assert out.stats is None and out.important == () and out.recent == ()
    assert out.persona_state == {"emotion": "joy", "mood": "calm"}
    assert out.tokens <= 40
    assert "## Recent memories" not in out.text and "## Important memories" not in out.text


def _lines_up_to(text: str, last: str) -> tuple[str, int]:
    """The text up to and including the line ``last``, and its token estimate."""
    lines = text.splitlines()
    head = "\n".join(lines[: lines.index(last) + 1])
    return head, estimate_tokens(head)


@pytest.mark.parametrize(
    "last_line",
    [
        pytest.param(
            "- [2026-03-02] " + " ".join(f"word1x{j}" for j in range(8)),
            id="two-newest-recent-memories",
        ),
        pytest.param("Likes tea.", id="highest-priority-block"),
        pytest.param("- nickname: Ra", id="persona-and-user-only"),
    ],
)
def test_context_keeps_exactly_the_most_valuable_prefix(last_line: str) -> None:
    full = assemble_context(_full(), budget_tokens=5000)
    head, budget = _lines_up_to(full.text, last_line)
    out = assemble_context(_full(), budget_tokens=budget)
    assert out.text == head
    assert out.tokens == budget


def test_context_drops_the_oldest_recent_memories_first() -> None:
    full = assemble_context(_full(), budget_tokens=5000)
    _, budget = _lines_up_to(
        full.text, "- [2026-03-02] " + " ".join(f"word1x{j}" for j in range(8))
    )
    out = assemble_context(_full(), budget_tokens=budget)
    assert [m.key for m in out.recent] == ["k0", "k1"]
    assert [b.name for b in out.blocks] == ["user_model", "active_context"]
    assert out.omitted == {"recent_memories": 2, "important_memories": 4, "stats": 1}


def test_context_cuts_each_block_to_its_max_tokens() -> None:
    long_block = BlockText("persona_state", "cheerful " * 200, 9, 20)
    out = assemble_context(_full(blocks=[long_block]), budget_tokens=5000)
    assert estimate_tokens(out.blocks[0].content) <= 20
    assert out.blocks[0].content.endswith("…")


def test_context_without_blocks_has_no_blocks_section() -> None:
    out = assemble_context(_full(blocks=[]), budget_tokens=5000)
    assert "## Memory blocks" not in out.text and out.blocks == ()


def test_context_shows_memory_dates_in_the_persona_time_zone() -> None:
    late = MemoryLine("k1", "Tea at night", datetime(2026, 3, 1, 20, tzinfo=UTC), 0.5)
    out = assemble_context(_full(recent=[late], tz=ZoneInfo("Asia/Tokyo")), budget_tokens=5000)
    assert "- [2026-03-02] Tea at night" in out.text


def test_context_of_first_session_without_anything_known() -> None:
    out = assemble_context(
        ContextInput(persona="rin", language=Lang.EN, since_last_session=None), budget_tokens=500
    )
    assert out.text.splitlines() == [
        "# Context for rin",
        "## Persona",
        "You are rin.",
        "## User",
        "The user's name is not known yet.",
        "## Session",
        "This is the first session.",
        "## Memory stats",
        "0 active memories (0 superseded), mean strength 0.00, 0 links.",
    ]


@given(budget=st.integers(min_value=10, max_value=600), lang=st.sampled_from([Lang.EN, Lang.JA]))
def test_context_never_exceeds_its_budget(budget: int, lang: Lang) -> None:
    out = assemble_context(_full(lang), budget_tokens=budget)
    assert estimate_tokens(out.text) <= budget
    assert out.tokens == estimate_tokens(out.text)


_HEADINGS = {
    Section.STATS: "## Memory stats",
    Section.IMPORTANT: "## Important memories",
    Section.RECENT: "## Recent memories",
    Section.BLOCKS: "## Memory blocks",
    Section.SESSION: "## Session",
    Section.USER: "## User",
    Section.PERSONA: "## Persona",
    Section.CONVERSATION: "## Last conversation (what was said, not yet in memories)",
}


@given(budget=st.integers(min_value=10, max_value=600))
def test_context_trims_a_section_only_after_every_lower_one_is_gone(budget: int) -> None:
    out = assemble_context(_full(), budget_tokens=budget)
    for i, section in enumerate(TRIM_ORDER):
        if _HEADINGS[section] in out.text:
            assert not set(out.omitted) & {str(s) for s in TRIM_ORDER[i + 1 :]}


def _turn(i: int, role: str, words: int = 6, *, session: str = "s1") -> TurnLine:
    speaker = "Rau" if role == "user" else "Rin"
    return TurnLine(
        session_id=session,
        event_id=100 + i,
        external_id=f"t{i}",
        speaker=speaker,
        role=role,
        content=" ".join(f"said{i}x{j}" for j in range(words)),
        said_at=datetime(2026, 3, 9, 12, i, tzinfo=UTC),
    )


def _chat(n: int, words: int = 6) -> list[TurnLine]:
    return [_turn(i, "user" if i % 2 == 0 else "assistant", words) for i in range(n)]


def test_context_shows_the_last_conversation_in_the_order_said() -> None:
    out = assemble_context(_full(conversation=_chat(4)), budget_tokens=5000)
    headings = [line for line in out.text.splitlines() if line.startswith("## ")]
    assert (
        headings.index("## Last conversation (what was said, not yet in memories)")
        == headings.index("## Recent memories") - 1
    )
    assert [t.event_id for t in out.conversation] == [100, 101, 102, 103]
    assert "- [2026-03-09] Rau: said0x0 said0x1" in out.text
    assert out.omitted == {}


def test_last_conversation_keeps_the_users_newest_turns_within_its_share() -> None:
    chat = _chat(40, words=10)
    budget = 600
    out = assemble_context(_full(conversation=chat, recent=[], important=[]), budget_tokens=budget)
    kept = [t.event_id - 100 for t in out.conversation]
    assert kept == sorted(kept)  # shown in the order said
    shown = sum(
        estimate_tokens(line) for line in out.text.splitlines() if line.startswith("- [2026-03-09]")
    )
    assert shown <= budget * CONVERSATION_SHARE
    users = [i for i in kept if i % 2 == 0]
    assert users and users == list(range(40 - 2 * len(users), 40, 2))  # the newest users'
    if any(i % 2 for i in kept):  # the persona's turns only once every user turn is in
        assert len(users) == 20
    assert out.omitted["last_conversation"] == 40 - len(kept)


def test_last_conversation_is_trimmed_after_important_before_recent() -> None:
    full = assemble_context(_full(conversation=_chat(2)), budget_tokens=5000)
    heading = "## Last conversation (what was said, not yet in memories)"
    important = [line for line in full.text.splitlines() if "(strength" in line]
    stats = full.text.splitlines()[-2:]
    cut = (
        full.tokens
        - sum(estimate_tokens(line) for line in [*important, *stats])
        - estimate_tokens("## Important memories")
        - 1
    )
    out = assemble_context(_full(conversation=_chat(2)), budget_tokens=cut)
    assert out.important == () and out.stats is None
    assert heading in out.text and len(out.conversation) == 1
    assert out.conversation[0].role == "user"
    assert len(out.recent) == 4


def test_last_conversation_heading_in_japanese() -> None:
    out = assemble_context(_full(Lang.JA, conversation=_chat(1)), budget_tokens=5000)
    assert "## 前回の会話（まだ記憶になっていない発言）" in out.text


@given(
    budget=st.integers(min_value=10, max_value=900), turns=st.integers(min_value=0, max_value=30)
)
def test_context_with_a_last_conversation_never_exceeds_its_budget(budget: int, turns: int) -> None:
    out = assemble_context(_full(conversation=_chat(turns)), budget_tokens=budget)
    assert estimate_tokens(out.text) <= budget
    kept = [t.event_id for t in out.conversation]
    assert kept == sorted(kept)
    assert len(kept) + out.omitted.get("last_conversation", 0) == turns


def test_last_conversation_marks_where_another_session_begins() -> None:
    """Up to three conversations are shown; as one run of lines they read as one."""
    chat = [*_chat(2), *(replace(t, event_id=t.event_id + 10, session_id="s2") for t in _chat(2))]
    out = assemble_context(_full(conversation=chat), budget_tokens=5000)
    lines = out.text.splitlines()
    at = lines.index("(another conversation)")
    assert lines[at - 1].startswith("- [") and lines[at + 1].startswith("- [")
    assert lines.count("(another conversation)") == 1
    assert (
        "(another conversation)"
        not in assemble_context(_full(conversation=_chat(4)), budget_tokens=5000).text
    )  # one session: no mark
    ja = assemble_context(_full(Lang.JA, conversation=chat), budget_tokens=5000)
    assert "（別の会話）" in ja.text.splitlines()


@given(budget=st.integers(min_value=10, max_value=600))
def test_context_with_two_conversations_stays_within_budget(budget: int) -> None:
    chat = [*_chat(6), *(replace(t, event_id=t.event_id + 10, session_id="s2") for t in _chat(6))]
    out = assemble_context(_full(conversation=chat), budget_tokens=budget)
    assert out.tokens <= budget
