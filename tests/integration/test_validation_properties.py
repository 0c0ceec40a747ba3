"""Property: the services take any text and any number a caller can send (MCP and CLI callers
reach them without the HTTP boundary) and answer with a result or one of Omoide's own errors,
never another exception (issue 13). Each example runs against a real store on a temp file."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omoide.errors import OmoideError
from omoide.wiring import Omoide

# Every code point, with the troublesome ones (lone surrogates, NUL, newlines, wide spaces)
# drawn often.
TEXT = st.lists(
    st.one_of(
        st.characters(codec=None, categories=None, exclude_categories=()),
        st.sampled_from(["\ud800", "\udfff", "\x00", "\n", "\u3000", ","]),
    ),
    max_size=40,
).map("".join)  # st.text() would never draw a lone surrogate
NUMBERS = st.one_of(st.integers(), st.floats(), st.integers(min_value=-(2**70), max_value=2**70))
TIMES = st.one_of(
    TEXT,
    st.sampled_from(
        [
            "9999-12-31T23:59:59-14:00",
            "0001-01-01T00:00:00+14:00",
            "1900-01-01T00:00:00+01:00",
            "2026-02-30",
            "2026-03-01T09:30:00+09:00",
            "now",
        ]
    ),
)
SCALARS = st.one_of(TEXT, NUMBERS, st.booleans(), st.none())
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=8,
)
PROPERTY = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def outcome(call: Any, *args: Any, **kwargs: Any) -> Any:
    """The call's result, or None when it raised one of Omoide's errors."""
    try:
        return call(*args, **kwargs)
    except OmoideError:
        return None


def one_odd_field(fields: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Keyword arguments where one field (drawn) gets an arbitrary value: the others are left
    out, so that a bad value is not hidden behind another field's refusal."""
    return st.sampled_from(sorted(fields)).flatmap(
        lambda name: fields[name].map(lambda value: {name: value})
    )


@PROPERTY
@given(
    content=TEXT,
    odd=one_odd_field(
        {
            "importance": st.one_of(NUMBERS, VALUES),
            "tags": st.one_of(st.lists(TEXT), VALUES),
            "valid_from": TIMES,
            "valid_until": TIMES,
            "metadata": VALUES,
            "kind": VALUES,
            "emotion_type": VALUES,
            "emotion_intensity": st.one_of(NUMBERS, VALUES),
        }
    ),
)
def test_memory_create_takes_any_input(
    app: Omoide, persona: str, content: str, odd: dict[str, Any]
) -> None:
    new = outcome(app.memories.build_new, content=content, **odd)
    if new is not None:
        outcome(app.memories.create, persona, new)


@PROPERTY
@given(
    query=TEXT,
    odd=one_odd_field(
        {
            "top_k": st.one_of(NUMBERS, VALUES),
            "tags": st.one_of(st.lists(TEXT), VALUES),
            "date_range": st.one_of(TEXT, VALUES),
            "valid_at": TIMES,
            "mode": VALUES,
            "importance_weight": st.one_of(NUMBERS, VALUES),
            "min_importance": st.one_of(NUMBERS, VALUES),
            "kind": VALUES,
        }
    ),
)
def test_search_takes_any_input(app: Omoide, persona: str, query: str, odd: dict[str, Any]) -> None:
    request = outcome(app.search.build_request, persona, query=query, **odd)
    if request is not None:
        outcome(app.search.search, persona, request)


@PROPERTY
@given(
    user=st.one_of(
        VALUES,
        st.dictionaries(st.one_of(TEXT, st.just("name")), st.one_of(TEXT, NUMBERS), max_size=2),
    ),
    persona_state=st.one_of(
        st.none(),
        st.dictionaries(
            st.sampled_from(["mood", "emotion_intensity"]),
            st.one_of(TEXT, NUMBERS, VALUES),
            max_size=2,
        ),
    ),
    key=st.one_of(TEXT, st.just("name")),
    at=TIMES,
)
def test_state_takes_any_input(
    app: Omoide, persona: str, user: Any, persona_state: Any, key: Any, at: Any
) -> None:
    outcome(app.state.update, persona, user=user, persona_state=persona_state)
    outcome(app.state.history, persona, "user", key, at)


@PROPERTY
@given(
    name=st.one_of(TEXT, st.just("notes")),
    content=TEXT,
    odd=one_odd_field(
        {
            "block_type": VALUES,
            "max_tokens": st.one_of(NUMBERS, VALUES),
            "priority": st.one_of(NUMBERS, VALUES),
            "metadata": VALUES,
        }
    ),
)
def test_blocks_take_any_input(
    app: Omoide, persona: str, name: str, content: str, odd: dict[str, Any]
) -> None:
    outcome(app.blocks.write_block, persona, block_name=name, content=content, **odd)


@PROPERTY
@given(
    session_id=st.one_of(st.none(), TEXT, VALUES),
    started_at=st.one_of(st.none(), TIMES),
    events=st.one_of(
        VALUES,
        st.lists(
            st.fixed_dictionaries(
                {"speaker": TEXT, "content": TEXT},
                optional={
                    "role": VALUES,
                    "timestamp": TIMES,
                    "external_id": st.one_of(NUMBERS, VALUES),
                    "metadata": VALUES,
                },
            ),
            max_size=3,
        ),
    ),
)
def test_sessions_take_any_input(
    app: Omoide, persona: str, session_id: Any, started_at: Any, events: Any
) -> None:
    opened = outcome(app.sessions.open, persona, session_id=session_id, started_at=started_at)
    if opened is not None:
        outcome(app.sessions.record, persona, opened[0].session_id, events)


@PROPERTY
@given(
    patch=st.dictionaries(
        st.sampled_from(
            [
                "importance_weight",
                "keep_recent",
                "timezone",
                "language",
                "context_include_blocks",
                "keyword_weight",
                "unknown",
            ]
        ),
        st.one_of(NUMBERS, VALUES),
        max_size=3,
    )
)
def test_settings_take_any_input(app: Omoide, persona: str, patch: dict[str, Any]) -> None:
    outcome(app.settings_service.update, persona, patch)
    app.settings_service.get(persona)  # whatever was stored, the settings still read
