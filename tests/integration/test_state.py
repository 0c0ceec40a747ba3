"""Bi-temporal user state and persona state on a real SQLite file (spec §Bi-temporal User State
Tracking): closing and opening rows atomically, history, point-in-time reads, concurrency."""

from __future__ import annotations

import itertools
import threading
from datetime import UTC, datetime, timedelta

import pytest

from omoide.clock import FixedClock, iso
from omoide.errors import InvalidInput, NotFound
from omoide.service.state import StateKind
from omoide.wiring import Omoide


def rows(app: Omoide, table: str = "user_state_history") -> list[tuple[str, str, str, str | None]]:
    return [
        tuple(r)
        for r in app.store.db.conn().execute(
            f"SELECT key, value, valid_from, valid_until FROM {table} ORDER BY valid_from, id"
        )
    ]


def test_update_closes_current_value_and_opens_new_one(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    first = clock.now()
    assert app.state.update_user_state(persona, {"name": "らうらう", "nickname": "らう"}) == [
        "name",
        "nickname",
    ]
    second = clock.advance(days=2)
    assert app.state.update_user_state(persona, {"name": "Rau"}) == ["name"]
    assert app.state.get_current_user_state(persona) == {"name": "Rau", "nickname": "らう"}
    history = app.state.get_user_state_history(persona, "name")
    assert [(e.value, e.valid_from, e.valid_until, e.is_current) for e in history] == [
        ("らうらう", first, second, False),
        ("Rau", second, None, True),
    ]


def test_unchanged_value_writes_nothing(app: Omoide, persona: str, clock: FixedClock) -> None:
    app.state.update_user_state(persona, {"name": "Rau"})
    clock.advance(hours=1)
    before = rows(app)
    with app.store.db.trace() as statements:
        assert app.state.update_user_state(persona, {"name": "Rau"}) == []
    assert rows(app) == before
    assert not [s for s in statements if s.split()[0].upper() in {"INSERT", "UPDATE", "BEGIN"}]


def test_mixed_update_reports_only_changed_keys(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.state.update_user_state(persona, {"name": "Rau", "nickname": "Ra"})
    clock.advance(hours=1)
    assert app.state.update_user_state(persona, {"name": "Rau", "nickname": "R"}) == ["nickname"]
    assert [r[1] for r in rows(app) if r[0] == "name"] == ["Rau"]


def test_point_in_time_read_answers_what_the_name_was_then(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    clock.set(datetime(2026, 1, 10, tzinfo=UTC))
    app.state.update_user_state(persona, {"name": "らうらう"})
    clock.set(datetime(2026, 4, 2, 12, tzinfo=UTC))
    app.state.update_user_state(persona, {"name": "Rau"})

    def name_on(when: str) -> list[str]:
        return [e.value for e in app.state.get_user_state_history(persona, "name", at=when)]

    assert name_on("2026-03-01") == ["らうらう"]
    assert name_on("2026-04-02T12:00:00Z") == ["Rau"]  # valid_from <= at < valid_until
    assert name_on("2026-04-02T11:59:59Z") == ["らうらう"]
    assert name_on("2027-01-01") == ["Rau"]
    assert name_on("2025-12-31") == []


def test_history_of_unknown_key_is_empty(app: Omoide, persona: str) -> None:
    assert app.state.get_user_state_history(persona, "birthday") == []


def test_concurrent_updates_leave_one_current_row_and_an_unbroken_chain(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    errors: list[BaseException] = []
    tick = threading.Lock()

    def writer(thread: int) -> None:
        try:
            for i in range(10):
                with tick:  # a moving clock, so each row has its own time
                    clock.advance(milliseconds=1)
                app.state.update_user_state(persona, {"name": f"name-{thread}-{i}"})
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    history = app.state.get_user_state_history(persona, "name")
    assert len(history) == 80
    assert sum(e.is_current for e in history) == 1
    assert history[-1].is_current
    assert sorted(history, key=lambda e: e.valid_from) == history
    for older, newer in itertools.pairwise(history):
        assert older.valid_until == newer.valid_from
    assert (
        app.store.db.conn()
        .execute("SELECT COUNT(*) FROM user_state_history WHERE valid_until IS NULL")
        .fetchone()[0]
        == 1
    )


def test_a_writer_with_an_earlier_clock_never_breaks_the_chain(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.state.update_user_state(persona, {"name": "A"})
    clock.advance(hours=-1)  # the clock moved back (or a writer read it before the lock)
    app.state.update_user_state(persona, {"name": "B"})
    old, new = app.state.get_user_state_history(persona, "name")
    assert old.valid_until == new.valid_from == old.valid_from


def test_persona_state_is_bi_temporal_too(app: Omoide, persona: str, clock: FixedClock) -> None:
    app.state.update_persona_state(
        persona,
        {
            "emotion": "joy",
            "emotion_intensity": 0.8,
            "mood": "calm",
            "current_activity": "reading",
            "goals": "learn the user's name",
        },
    )
    clock.advance(hours=3)
    assert app.state.update_persona_state(persona, {"emotion": "sad", "mood": "calm"}) == [
        "emotion"
    ]
    assert app.state.get_current_persona_state(persona) == {
        "current_activity": "reading",
        "emotion": "sad",
        "emotion_intensity": "0.8",
        "goals": "learn the user's name",
        "mood": "calm",
    }
    assert [e.value for e in app.state.get_persona_state_history(persona, "emotion")] == [
        "joy",
        "sad",
    ]
    assert rows(app) == []  # the user's state is a separate table


def test_user_and_persona_state_change_in_one_transaction(app: Omoide, persona: str) -> None:
    with app.store.db.trace() as statements:
        changes = app.state.update(persona, user={"name": "Rau"}, persona_state={"emotion": "joy"})
    assert (changes.user, changes.persona) == (["name"], ["emotion"])
    assert [
        s.split()[0].upper() for s in statements if s.split()[0].upper() in {"BEGIN", "COMMIT"}
    ] == ["BEGIN", "COMMIT"]


def test_bad_persona_state_writes_no_user_state_either(app: Omoide, persona: str) -> None:
    with pytest.raises(
        InvalidInput,
        match=r"persona_state\.emotion_intensity must be a number "
        r"between 0 and 1",
    ):
        app.state.update(persona, user={"name": "Rau"}, persona_state={"emotion_intensity": 3})
    assert app.state.get_current_user_state(persona) == {}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        pytest.param({"": "x"}, "state key '' is invalid", id="empty-key"),
        pytest.param({"a" * 65: "x"}, "is invalid: use 1-64", id="long-key"),
        pytest.param({"first name": "x"}, "state key 'first name' is invalid", id="space-in-key"),
        pytest.param({"name": ""}, "user_info.name must not be empty", id="empty-value"),
        pytest.param({"name": "   "}, "user_info.name must not be empty", id="blank-value"),
        pytest.param(
            {"name": "x" * 2001}, "must be at most 2,000 characters, got 2,001", id="long"
        ),
        pytest.param(
            {"name": ["a"]}, "must be a string or a number (join several values with", id="list"
        ),
        pytest.param(
            {"name": True}, "user_info.name must be a string or a number, got true", id="bool"
        ),
        pytest.param(
            {"city": {"a": 1}},
            'user_info.city must be a string or a number, got {"a": 1}',
            id="object",
        ),
        pytest.param({"city": 1e300}, "user_info.city is a number outside ±", id="wide-number"),
        pytest.param(
            {"emotion_intensity": True},
            "user_info.emotion_intensity must be a number between 0 and 1",
            id="intensity-bool",
        ),
        pytest.param(["name"], "user_info must be a JSON object", id="not-a-map"),
    ],
)
def test_update_refuses_bad_input_with_a_clear_message(
    app: Omoide, persona: str, values: object, message: str
) -> None:
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(").replace(".", r"\.")):
        app.state.update_user_state(persona, values)


def test_numbers_are_kept_as_text(app: Omoide, persona: str) -> None:
    app.state.update_user_state(persona, {"age": 31, "height_m": 1.7})
    assert app.state.get_current_user_state(persona) == {"age": "31", "height_m": "1.7"}


def test_history_needs_a_valid_key_and_time(app: Omoide, persona: str) -> None:
    with pytest.raises(InvalidInput, match="key is required"):
        app.state.get_user_state_history(persona, "")
    with pytest.raises(InvalidInput, match="at is not a valid ISO-8601"):
        app.state.get_user_state_history(persona, "name", at="yesterday-ish")


def test_state_is_per_persona(app: Omoide, persona: str) -> None:
    app.auth.create_persona("kai")
    app.state.update_user_state(persona, {"name": "Rau"})
    app.state.update_user_state("kai", {"name": "Ken"})
    assert app.state.get_current_user_state(persona) == {"name": "Rau"}
    assert app.state.current("kai", StateKind.USER) == {"name": "Ken"}
    with pytest.raises(NotFound):
        app.state.get_current_user_state("nobody")


def test_stored_times_are_iso_utc(app: Omoide, persona: str, clock: FixedClock) -> None:
    app.state.update_user_state(persona, {"name": "Rau"})
    clock.advance(seconds=1)
    app.state.update_user_state(persona, {"name": "Ra"})
    assert rows(app) == [
        ("name", "Rau", iso(clock.now() - timedelta(seconds=1)), iso(clock.now())),
        ("name", "Ra", iso(clock.now()), None),
    ]


def test_an_intensity_given_as_text_with_too_many_decimals_says_so(
    app: Omoide, persona: str
) -> None:
    with pytest.raises(InvalidInput, match=r"at most 6 decimals"):
        app.state.update(persona, persona_state={"emotion_intensity": "0.5000000"})
    app.state.update(persona, persona_state={"emotion_intensity": "0.500000"})


def test_null_closes_a_key_and_keeps_its_history(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.state.update_user_state(persona, {"name": "Rau", "nickname": "Ra"})
    clock.advance(seconds=5)
    assert app.state.update_user_state(persona, {"nickname": None, "gone": None}) == [
        "nickname"
    ]  # a key without a value has nothing to close
    assert app.state.get_current_user_state(persona) == {"name": "Rau"}
    assert rows(app)[-1] == (
        "nickname",
        "Ra",
        iso(clock.now() - timedelta(seconds=5)),
        iso(clock.now()),
    )
    assert app.state.update_user_state(persona, {"nickname": None}) == []  # already closed
    clock.advance(seconds=5)
    app.state.update_user_state(persona, {"nickname": "R"})  # set again: a new value
    assert [
        (e.value, e.valid_until is None)
        for e in app.state.get_user_state_history(persona, "nickname")
    ] == [("Ra", False), ("R", True)]


def test_deleting_a_conversation_keeps_a_close_the_user_made(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """Set by hand, closed by hand, then learned from a conversation: erasing the conversation
    leaves the key closed where the user closed it, not current again."""
    app.state.update_user_state(persona, {"nickname": "Bis"})
    clock.advance(seconds=5)
    app.state.update_user_state(persona, {"nickname": None})
    closed = clock.now()
    clock.advance(seconds=5)
    app.sessions.open(persona, session_id="s1")
    app.state.update_user_state(persona, {"nickname": "Biscuit"}, source_session="s1")
    assert app.state.get_current_user_state(persona) == {"nickname": "Biscuit"}
    app.forget.delete_session(persona, "s1")
    assert app.state.get_current_user_state(persona) == {}
    assert [
        (e.value, e.valid_until) for e in app.state.get_user_state_history(persona, "nickname")
    ] == [("Bis", closed)]


def test_a_refused_value_is_told_in_jsons_words(app: Omoide, persona: str) -> None:
    """ "got True", "got bool", "got dict": Python's words, in an API spoken in JSON (HTTP's
    PUT …-state and MCP's update_context share this check)."""
    with pytest.raises(InvalidInput) as caught:
        app.state.update_user_state(persona, {"emotion_intensity": True})
    assert str(caught.value).endswith('e.g. "0.75"), got true')
    with pytest.raises(InvalidInput) as caught:
        app.state.update_user_state(persona, {"city": [1, 2]})
    assert str(caught.value) == (
        "user_info.city must be a string or a number (join several values with '; '), got [1, 2]"
    )
