"""session_begin / get_context / update_context with a real store: what goes in, what is left
out, the budget, the time since the last session, and that get_context only reads."""

from __future__ import annotations

from datetime import timedelta

import pytest

from omoide.clock import FixedClock, iso
from omoide.engine.tokens import estimate_tokens
from omoide.errors import InvalidInput
from omoide.wiring import Omoide

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN", "COMMIT")


def remember(app: Omoide, persona: str, content: str, **fields: object) -> str:
    outcome = app.memories.create(persona, app.memories.build_new(content=content, **fields))
    assert outcome.status == "created", content
    assert outcome.memory is not None
    return outcome.memory.key


def session_rows(app: Omoide) -> list[tuple[str, str | None]]:
    return [
        (r[0], r[1])
        for r in app.store.db.conn().execute(
            "SELECT started_at, ended_at FROM sessions ORDER BY id"
        )
    ]


def test_get_context_only_reads(app: Omoide, persona: str, clock: FixedClock) -> None:
    app.settings_service.update(persona, {"context_include_blocks": True})
    remember(app, persona, "The user grows tomatoes on the balcony")
    app.blocks.write_block(persona, block_name="user_model", content="Gardener.")
    app.context.update_context(persona, user_info={"name": "Rau"})
    app.context.session_begin(persona)
    clock.advance(days=1)
    with app.store.db.trace() as statements:
        result = app.context.get_context(persona)
    assert "Gardener." in result.text
    assert [s for s in statements if s.lstrip().split()[0].upper() in WRITES] == []


def test_first_session_begin_opens_a_session_and_says_so(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    start = app.context.session_begin(persona)
    assert start.session_id.startswith("ses_")
    assert (start.started_at, start.previous_session_at) == (clock.now(), None)
    assert "This is the first session." in start.context.text
    assert session_rows(app) == [(iso(clock.now()), None)]


def test_session_begin_reports_time_since_previous_start_when_never_ended(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    first = app.context.session_begin(persona)
    clock.advance(days=3, hours=4)
    second = app.context.session_begin(persona)
    assert second.previous_session_at == first.started_at
    assert second.context.context.last_session == "3 days ago"
    assert "The last session was 3 days ago." in second.context.text
    assert second.session_id != first.session_id


def test_time_since_last_session_runs_from_its_end(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.context.session_begin(persona)
    ended = clock.advance(days=6)
    app.store.db.conn().execute("UPDATE sessions SET ended_at = ?", (iso(ended),))
    clock.advance(hours=5)
    start = app.context.session_begin(persona)
    assert start.previous_session_at == ended
    assert start.context.context.last_session == "5 hours ago"


def test_get_context_in_a_session_reports_the_gap_before_it(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    assert app.context.get_context(persona).context.last_session == "first session"
    app.context.session_begin(persona)
    clock.advance(days=14)
    begun = app.context.session_begin(persona)
    clock.advance(minutes=40)
    later = app.context.get_context(persona)
    assert later.last_session_at == begun.previous_session_at
    assert later.context.last_session == "2 weeks ago"
    app.store.db.conn().execute(
        "UPDATE sessions SET ended_at = ? WHERE session_id = ?",
        (iso(clock.now()), begun.session_id),
    )
    clock.advance(hours=2)
    assert app.context.get_context(persona).context.last_session == "2 hours ago"


def test_context_addresses_the_user_and_shows_persona_state(app: Omoide, persona: str) -> None:
    changes = app.context.update_context(
        persona,
        user_info={"name": "Rau Tanaka", "nickname": "Rau"},
        persona_state={"emotion": "curious", "current_activity": "reading"},
    )
    assert (changes.user, changes.persona) == (
        ["name", "nickname"],
        ["emotion", "current_activity"],
    )
    text = app.context.get_context(persona).text
    assert 'Address the user as "Rau".' in text
    assert "You are rin.\n- emotion: curious\n- current activity: reading" in text


def test_update_context_needs_something_to_update(app: Omoide, persona: str) -> None:
    with pytest.raises(InvalidInput, match="give user_info and/or persona_state"):
        app.context.update_context(persona)


def test_important_memories_rank_by_current_strength_and_skip_closed_ones(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.settings_service.update(persona, {"context_recent_count": 0})
    vivid_old = remember(
        app, persona, "The user's first concert was in Kyoto", importance=0.9, emotion_intensity=0.8
    )
    forgotten = remember(app, persona, "The user once mentioned a parking ticket", importance=0.9)
    closed = remember(app, persona, "The user works at a bakery", importance=1.0)
    clock.advance(days=30)
    app.memories.update(persona, closed, valid_until=iso(clock.now()))
    fresh = remember(app, persona, "The user adopted a cat named Mochi", importance=0.6)
    mild = remember(app, persona, "The user prefers window seats on trains", importance=0.3)
    context = app.context.get_context(persona).context
    assert [m.key for m in context.important] == [fresh, mild, vivid_old]
    assert forgotten not in [m.key for m in context.important]  # strength 0.04 < 0.05
    assert [round(m.strength, 3) for m in context.important] == [0.6, 0.3, 0.118]


def test_recent_memories_are_newest_first_and_not_repeated_as_important(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.settings_service.update(persona, {"context_recent_count": 2, "context_important_count": 5})
    keys = []
    for content in (
        "The user likes hiking in autumn",
        "The user studies Korean on Sundays",
        "The user bought a green bicycle",
    ):
        keys.append(remember(app, persona, content, importance=0.7))
        clock.advance(hours=1)
    context = app.context.get_context(persona).context
    assert [m.key for m in context.recent] == [keys[2], keys[1]]
    assert [m.key for m in context.important] == [keys[0]]


def test_blocks_appear_only_when_context_include_blocks_is_on(app: Omoide, persona: str) -> None:
    app.blocks.write_block(persona, block_name="user_model", content="Likes tea.", priority=2)
    app.blocks.write_block(persona, block_name="active_context", content="Trip plan.", priority=5)
    off = app.context.get_context(persona)
    assert "Likes tea." not in off.text and off.context.blocks == ()
    app.settings_service.update(persona, {"context_include_blocks": True})
    on = app.context.get_context(persona)
    assert [b.name for b in on.context.blocks] == ["active_context", "user_model"]
    assert "## Memory blocks\n### active_context\nTrip plan.\n### user_model\nLikes tea." in on.text


def test_tiny_budget_drops_lowest_priority_sections_first_and_fits(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.context.update_context(persona, user_info={"name": "Rau"}, persona_state={"mood": "calm"})
    for i, fact in enumerate(
        [
            "The user drinks sencha every morning before work",
            "Night trains across Hokkaido are a dream trip for the user",
            "Two cats, Mochi and Kinako, live with the user",
            "Rainy Sundays mean jigsaw puzzles at home",
            "Old paper maps of Kyoto hang on the user's wall",
            "Jazz piano lessons started last spring",
            "Fresh figs from the market are a favourite snack",
        ]
    ):
        remember(app, persona, fact, importance=0.5 + i / 20)
        clock.advance(hours=1)
    full = app.context.get_context(persona)
    assert full.context.omitted == {}
    app.settings_service.update(persona, {"context_budget_tokens": 100})
    small = app.context.get_context(persona)
    assert small.context.tokens <= 100 and estimate_tokens(small.text) <= 100
    assert small.context.stats is None and small.context.important == ()
    assert small.context.omitted["stats"] == 1
    assert "You are rin." in small.text and 'Address the user as "Rau".' in small.text
    assert len(small.context.recent) < len(full.context.recent)
    assert [m.key for m in small.context.recent] == [m.key for m in full.context.recent][
        : len(small.context.recent)
    ]


@pytest.mark.parametrize(
    ("language", "first_line"),
    [
        pytest.param("auto", "# rin のコンテキスト", id="auto-japanese"),
        pytest.param("en", "# Context for rin", id="forced-english"),
    ],
)
def test_language_follows_the_setting_and_the_users_text(
    app: Omoide, persona: str, language: str, first_line: str
) -> None:
    app.settings_service.update(persona, {"language": language})
    app.context.update_context(persona, user_info={"name": "らうらう"})
    remember(app, persona, "ユーザーは毎朝緑茶を飲む")
    remember(app, persona, "The user lives in Osaka")
    assert app.context.get_context(persona).text.splitlines()[0] == first_line


def test_session_begin_context_uses_the_persona_time_zone_for_dates(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    clock.set(clock.now().replace(hour=20))
    remember(app, persona, "The user watched the meteor shower")
    app.settings_service.update(persona, {"timezone": "Asia/Tokyo"})
    day = (clock.now() + timedelta(hours=9)).date().isoformat()
    assert f"- [{day}] The user watched the meteor shower" in app.context.get_context(persona).text


def test_setting_override_resets_to_default_with_null(app, persona: str) -> None:
    from omoide.errors import InvalidInput

    app.settings_service.update(persona, {"importance_weight": 0.5, "keep_recent": 9})
    assert app.settings_service.get(persona).importance_weight == 0.5
    app.settings_service.update(persona, {"importance_weight": None})
    assert (
        app.settings_service.get(persona).importance_weight
        == app.settings_service.defaults.importance_weight
    )
    assert app.settings_service.overrides(persona) == {"keep_recent": 9}
    import pytest

    with pytest.raises(InvalidInput, match="unknown setting"):
        app.settings_service.update(persona, {"no_such_setting": None})


def _conversation(
    app: Omoide, persona: str, clock: FixedClock, session_id: str, *lines: str, end: bool = True
) -> None:
    app.sessions.open(persona, session_id=session_id)
    app.sessions.record(
        persona, session_id, [{"speaker": "Rau", "content": line} for line in lines]
    )
    if end:
        app.sessions.end(persona, session_id)
    clock.advance(minutes=10)


def test_context_shows_turns_of_the_three_latest_sessions_not_yet_consolidated(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    for n in range(1, 5):  # nothing runs the jobs: none of them is segmented
        _conversation(app, persona, clock, f"s{n}", f"topic number {n} was discussed")
    start = app.context.session_begin(persona)
    shown = start.context.context.conversation
    assert [t.session_id for t in shown] == ["s2", "s3", "s4"]  # oldest session first
    assert "topic number 1" not in start.context.text
    assert "- [2026-11-30] Rau: topic number 4 was discussed" in start.context.text
    # the new session is the current one: get_context reads the same three
    assert [t.session_id for t in app.context.get_context(persona).context.conversation] == [
        "s2",
        "s3",
        "s4",
    ]


def test_consolidated_episodes_leave_the_last_conversation(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    _conversation(
        app,
        persona,
        clock,
        "s1",
        "I adopted a cat named Pistache.",
        "Pistache sleeps on my keyboard.",
    )
    assert len(app.context.get_context(persona).context.conversation) == 2
    app.runner.run_until_idle()
    context = app.context.get_context(persona)
    assert context.context.conversation == ()
    assert "Pistache" in context.text  # now as a note


def test_pending_japanese_turns_choose_japanese_context(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    _conversation(app, persona, clock, "s1", "昨日から京都に住んでいます。", "猫を飼い始めました。")
    context = app.context.get_context(persona)
    assert context.text.splitlines()[0] == "# rin のコンテキスト"
    assert "## 前回の会話（まだ記憶になっていない発言）" in context.text
