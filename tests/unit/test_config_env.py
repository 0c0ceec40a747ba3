"""Process settings read from the environment (config.Settings.from_env)."""

from __future__ import annotations

import json
import re

import pytest

from omoide.config import Settings
from omoide.errors import InvalidInput


def test_embed_timeout_defaults_to_30_seconds() -> None:
    assert Settings.from_env({}).embed_timeout_s == 30.0


def test_embed_timeout_takes_fractional_seconds() -> None:
    assert Settings.from_env({"OMOIDE_EMBED_TIMEOUT": "2.5"}).embed_timeout_s == 2.5


@pytest.mark.parametrize("raw", ["soon", "nan", "inf"])
def test_embed_timeout_refuses_what_is_not_a_finite_number(raw: str) -> None:
    with pytest.raises(InvalidInput, match="OMOIDE_EMBED_TIMEOUT"):
        Settings.from_env({"OMOIDE_EMBED_TIMEOUT": raw})


def test_a_dashboard_secret_is_optional_and_never_shown() -> None:
    assert Settings.from_env({}).dashboard_secret is None
    secret = "s" * 40
    settings = Settings.from_env({"OMOIDE_DASHBOARD_SECRET": f"  {secret}\n"})
    assert settings.dashboard_secret == secret
    assert secret not in repr(settings)


def test_a_short_dashboard_secret_is_refused() -> None:
    with pytest.raises(InvalidInput, match="OMOIDE_DASHBOARD_SECRET must be at least 32"):
        Settings.from_env({"OMOIDE_DASHBOARD_SECRET": "short"})


@pytest.mark.parametrize(
    ("var", "raw", "named"),
    [
        ("OMOIDE_PORT", "70000", "0-65535"),
        ("OMOIDE_PORT", "-1", "0-65535"),
        ("OMOIDE_WORKERS", "-1", "at least 0"),
        ("OMOIDE_EMBED_THREADS", "0", "at least 1"),
        ("OMOIDE_EMBED_BATCH", "0", "at least 1"),
        ("OMOIDE_MAX_BODY_BYTES", "-5", "at least 1"),
        ("OMOIDE_MAX_IMPORT_BYTES", "0", "at least 1"),
        ("OMOIDE_PG_POOL_SIZE", "0", "at least 1"),
        ("OMOIDE_PG_POOL_WAIT", "0", "above 0 and at most 600 seconds"),
        ("OMOIDE_PG_POOL_WAIT", "601", "above 0 and at most 600 seconds"),
    ],
)
def test_process_integers_out_of_range_are_refused_naming_the_variable(
    var: str, raw: str, named: str
) -> None:
    """A port past 65535 was a traceback from bind() after the app was built; a negative body
    limit refused every request with a 413; -1 workers ran none, without a word."""
    with pytest.raises(InvalidInput) as refused:
        Settings.from_env({var: raw})
    assert var in refused.value.message and named in refused.value.message
    assert Settings.from_env({"OMOIDE_PORT": "0", "OMOIDE_WORKERS": "0"}).workers == 0
    with pytest.raises(InvalidInput, match="--port"):
        Settings.from_env({}, port=99_999)


def test_both_search_weights_at_zero_in_the_environment_stop_start_up() -> None:
    """The API refuses this pair (409); from the environment it was taken, and every search of
    every persona was then refused at run time."""
    with pytest.raises(InvalidInput, match="OMOIDE_KEYWORD_WEIGHT and OMOIDE_SEMANTIC_WEIGHT"):
        Settings.from_env({"OMOIDE_KEYWORD_WEIGHT": "0", "OMOIDE_SEMANTIC_WEIGHT": "0"})
    assert Settings.from_env({"OMOIDE_KEYWORD_WEIGHT": "0"}).persona_defaults.keyword_weight == 0


@pytest.mark.parametrize(
    ("var", "value", "override"),
    [
        ("OMOIDE_PORT", "abc", {"port": 9000}),
        ("OMOIDE_PORT", "70000", {"port": 0}),
        ("OMOIDE_WORKERS", "many", {"workers": 2}),
    ],
)
def test_an_override_wins_over_a_bad_environment_value(
    var: str, value: str, override: dict[str, object]
) -> None:
    """A command-line flag (``serve --port``) replaces the variable, so its bad value is
    never read; without the flag the same value is still refused naming the variable."""
    settings = Settings.from_env({var: value}, **override)
    name, given = next(iter(override.items()))
    assert getattr(settings, name) == given


def test_a_bad_port_without_an_override_is_refused_naming_the_variable() -> None:
    with pytest.raises(
        InvalidInput,
        match=re.escape(
            "OMOIDE_PORT must be an integer written with the digits 0-9 (as in JSON: e.g. 5 or "
            '300), got "abc"'
        ),
    ):
        Settings.from_env({"OMOIDE_PORT": "abc"})


def test_a_persona_setting_in_the_environment_reads_full_width_digits() -> None:
    """OMOIDE_SESSION_IDLE_MINUTES=３０ was refused ("digits 0-9") while dates take full-width
    digits everywhere; other scripts' digits are still refused."""
    defaults = Settings.from_env(
        {"OMOIDE_SESSION_IDLE_MINUTES": "３０", "OMOIDE_KEEP_RECENT": "１２"}
    ).persona_defaults
    assert (defaults.session_idle_minutes, defaults.keep_recent) == (30.0, 12)
    with pytest.raises(InvalidInput, match="digits 0-9"):
        Settings.from_env({"OMOIDE_KEEP_RECENT": "٣"})


@pytest.mark.parametrize(
    ("zone", "says"),
    [
        pytest.param("asia/tokyo", "did you mean 'Asia/Tokyo'?", id="case"),
        pytest.param("Asia/Tokyo ", "did you mean 'Asia/Tokyo'?", id="trailing-space"),
        pytest.param("JST", "an abbreviation such as JST", id="abbreviation"),
        pytest.param("+09:00", "e.g. Asia/Tokyo", id="offset"),
    ],
)
def test_an_unknown_time_zone_is_told_the_name_it_may_mean(zone: str, says: str) -> None:
    """'asia/tokyo' was refused with no hint that zone names are case-sensitive."""
    with pytest.raises(InvalidInput, match="not a known IANA time zone") as refused:
        Settings.from_env({"OMOIDE_TIMEZONE": zone})
    assert says in refused.value.message


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("OMOIDE_MAX_BODY_BYTES", "1_000_000"),
        ("OMOIDE_PORT", "+8765"),
        ("OMOIDE_WORKERS", "٣"),
        ("OMOIDE_EMBED_TIMEOUT", "inf"),
        ("OMOIDE_EMBED_TIMEOUT", ".5"),
        ("OMOIDE_JOB_LEASE_SECONDS", "6_0"),
        ("OMOIDE_LLM_TIMEOUT", "1_0"),
    ],
)
def test_a_process_number_is_read_as_a_json_number(var: str, value: str) -> None:
    """Session 25: ``int()``/``float()`` read ``OMOIDE_MAX_BODY_BYTES=1_000_000`` and
    ``OMOIDE_EMBED_TIMEOUT=.5``; process variables read numbers as persona settings do."""
    with pytest.raises(InvalidInput, match="digits 0-9") as refused:
        env = {var: value}
        if var.startswith("OMOIDE_LLM_"):
            env |= {"OMOIDE_LLM_PROVIDER": "openai", "OMOIDE_LLM_MODEL": "m"}
        Settings.from_env(env)
    assert json.dumps(value, ensure_ascii=False) in refused.value.message


def test_a_process_number_reads_full_width_digits_and_json_forms() -> None:
    settings = Settings.from_env(
        {
            "OMOIDE_PORT": "８７６６",
            "OMOIDE_EMBED_TIMEOUT": "2.5e1",
            "OMOIDE_MAX_BODY_BYTES": " 2000000 ",
        }
    )
    assert (settings.port, settings.embed_timeout_s, settings.max_body_bytes) == (
        8766,
        25.0,
        2_000_000,
    )


def test_the_postgresql_pool_s_size_and_wait() -> None:
    """The pool's wait for a connection was psycopg_pool's fixed 60 s, then a 500."""
    settings = Settings.from_env({})
    assert (settings.pg_pool_size, settings.pg_pool_wait_s) == (16, 10.0)
    settings = Settings.from_env({"OMOIDE_PG_POOL_SIZE": "4", "OMOIDE_PG_POOL_WAIT": "2.5"})
    assert (settings.pg_pool_size, settings.pg_pool_wait_s) == (4, 2.5)
