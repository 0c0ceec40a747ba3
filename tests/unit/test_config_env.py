"""Process settings read from the environment (config.Settings.from_env)."""

from __future__ import annotations

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
