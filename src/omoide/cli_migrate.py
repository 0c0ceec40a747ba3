"""``omoide migrate --to postgresql://…``: copy a SQLite data folder into PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from omoide.cli_common import _print, data_option, folder_hold, friendly, json_option
from omoide.cli_types import VERBATIM
from omoide.config import Settings

__all__ = ["migrate"]


@click.command("migrate")
@click.option(
    "--to",
    "url",
    required=True,
    metavar="URL",
    type=VERBATIM,
    help="The PostgreSQL database to copy into (postgresql://…); it must hold no persona yet.",
)
@data_option
@json_option
@friendly
def migrate(url: str, data: str | None, as_json: bool) -> None:
    """Copy the data folder's database (every persona, memory, session, key and job) into an
    empty PostgreSQL database. The folder is left as it was."""
    from omoide.wiring import copy_folder_to_database

    settings = Settings.from_env(data_dir=Path(data) if data else None)
    # the folder's own hold, even with OMOIDE_DATABASE_URL set: the copy reads the folder
    folder = replace(settings, database_url=None)
    with folder_hold(folder, "migrate", exclusive=True):  # refused while a server writes
        counts = copy_folder_to_database(settings, url)
    out = {"source": str(settings.db_path), "rows": {t: n for t, n in counts.items() if n}}
    _print(
        out,
        as_json,
        lambda d: "\n".join(
            [
                f"copied {d['source']} into the PostgreSQL database (rows per table):",
                *(f"  {table}: {n}" for table, n in d["rows"].items()),
                "now run the servers with OMOIDE_DATABASE_URL set to that database's URL",
            ]
        ),
    )
