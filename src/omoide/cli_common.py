"""What every ``omoide`` command module shares: the data folder, building the app, the common
options, one-line errors and printing. A module of its own so that each command module imports
it rather than ``omoide.cli``, which imports them (any of them can be imported first).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from omoide.config import Settings
from omoide.errors import OmoideError

__all__ = ["_build", "_print", "_settings", "data_option", "friendly", "json_option",
           "persona_option"]


def _settings(data: str | None, **overrides: Any) -> Settings:
    return Settings.from_env(data_dir=Path(data) if data else None, **overrides)


def _build(data: str | None, *, check_embedder_record: bool = True, **overrides: Any) -> Any:
    from omoide.wiring import build

    return build(_settings(data, **overrides), check_embedder_record=check_embedder_record)


def data_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The shared ``--data DIR`` option (default: $OMOIDE_DATA or ./data)."""
    return click.option("--data", "data", default=None, envvar="OMOIDE_DATA",
                        help="Data folder (default: $OMOIDE_DATA or ./data).")(fn)


def json_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn an OmoideError into one line on stderr and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except OmoideError as exc:
            raise click.ClickException(exc.message) from None

    return wrapper


def _print(data: Any, as_json: bool, text: Callable[[Any], str]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2) if as_json else text(data))


def persona_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--persona", "-p", required=True, help="Persona name.")(fn)
