"""``omoide migrate --to postgresql://…``: copy a SQLite data folder into PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import click

from omoide.cli_common import VERBATIM, data_option, friendly
from omoide.config import Settings

__all__ = ["migrate"]


@click.command("migrate")
@click.option("--to", "url", required=True, metavar="URL", type=VERBATIM,
              help="The PostgreSQL database to copy into (postgresql://…); it must hold no "
                   "persona yet.")
@data_option
@friendly
def migrate(url: str, data: str | None) -> None:
    """Copy the data folder's database (every persona, memory, session, key and job) into an
    empty PostgreSQL database. The folder is left as it was."""
    from omoide.wiring import copy_folder_to_database

    settings = Settings.from_env(data_dir=Path(data) if data else None)
    counts = copy_folder_to_database(settings, url)
    click.echo(f"copied {settings.db_path} into the PostgreSQL database (rows per table):")
    for table, n in counts.items():
        if n:
            click.echo(f"  {table}: {n}")
    click.echo("now run the servers with OMOIDE_DATABASE_URL set to that database's URL")
