"""Operations commands: ``omoide persona key create|list|revoke``, ``omoide backup``,
``omoide restore``. Registered on the main group by :func:`register_ops`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from omoide.cli_common import (
    _print,
    _settings,
    built,
    data_option,
    folder_hold,
    friendly,
    how_many,
    json_option,
    on_named_persona,
)
from omoide.cli_types import KEY_ID

__all__ = ["register_ops"]


def _keys_app(data: str | None) -> Any:
    """The app of a key command, closed as it ends (``built``). Keys embed nothing: no model
    is loaded and the folder's embedder is not checked."""
    return built(data, embedder="hash", check_embedder_record=False)


def _key_row(info: Any) -> dict[str, Any]:
    return {
        "key_id": info.id,
        "fingerprint": info.fingerprint,
        "created_at": info.created_at.isoformat(),
        "last_used_at": info.last_used_at.isoformat() if info.last_used_at else None,
        "revoked_at": info.revoked_at.isoformat() if info.revoked_at else None,
    }


@click.group("key")
def key_group() -> None:
    """Issue, list and revoke a persona's API keys."""


@key_group.command("create")
@on_named_persona
@friendly
def key_create(data: str | None, as_json: bool, name: str) -> None:
    """Issue another key for persona NAME and print it (shown only once)."""
    with _keys_app(data) as app:
        issued = app.auth.issue_key(name)
        _print(
            {**_key_row(issued.info), "persona": name, "api_key": issued.api_key},
            as_json,
            lambda d: (
                f"issued key {d['key_id']} for {d['persona']}\napi key (shown once): {d['api_key']}"
            ),
        )


@key_group.command("list")
@on_named_persona
@friendly
def key_list(data: str | None, as_json: bool, name: str) -> None:
    """List the keys of persona NAME (ids, fingerprints, creation, last use, revocation)."""
    with _keys_app(data) as app:
        rows = [_key_row(k) for k in app.auth.list_keys(name)]
        _print(
            rows,
            as_json,
            lambda rs: (
                "\n".join(
                    f"{r['key_id']}\t{r['fingerprint']}\tcreated {r['created_at'][:19]}\t"
                    f"used {(r['last_used_at'] or 'never')[:19]}"
                    + (f"\trevoked {r['revoked_at'][:19]}" if r["revoked_at"] else "")
                    for r in rs
                )
                or "(no keys)"
            ),
        )


@key_group.command("revoke")
@on_named_persona
@click.argument("key_id", type=KEY_ID)
@friendly
def key_revoke(data: str | None, as_json: bool, name: str, key_id: int) -> None:
    """Revoke key KEY_ID of persona NAME; a running server refuses it from its next request."""
    with _keys_app(data) as app:
        _print(
            _key_row(app.auth.revoke_key(name, key_id)),
            as_json,
            lambda d: f"revoked key {d['key_id']} of {name}",
        )


def _backup_row(info: Any) -> dict[str, Any]:
    return {
        "path": str(info.path),
        "bytes": info.bytes,
        "personas": info.personas,
        "memories": info.memories,
        "schema": info.migrations,
    }


@click.command("backup")
@data_option
@json_option
@click.option(
    "--to",
    "target",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to write the backup to.",
)
@click.option("--force", is_flag=True, help="Overwrite the file if it exists.")
@friendly
def backup_command(data: str | None, as_json: bool, target: Path, force: bool) -> None:
    """Copy the database to FILE with SQLite's online backup API (safe while serving).

    A folder a newer Omoide upgraded is copied too, with a warning on stderr: this Omoide
    cannot restore that backup (omoide restore refuses it), the newer one can."""
    from omoide.wiring import backup_database

    info = backup_database(_settings(data), target, overwrite=force)
    _print(
        # newer_schema: what the warning below says of a folder a newer Omoide upgraded, or null
        {**_backup_row(info), "newer_schema": info.newer_schema},
        as_json,
        lambda d: (
            f"backed up {how_many(d['personas'], 'persona')}, "
            f"{how_many(d['memories'], 'memory')} "
            f"({d['bytes']:,} bytes) to {d['path']}"
        ),
    )
    if info.newer_schema:  # a copy is made all the same: it loses nothing, and reads nothing
        click.echo(
            f"warning: {info.newer_schema}, so it cannot restore this backup (nor open "
            "the folder); restore it with the Omoide that upgraded the folder, or a later one",
            err=True,
        )


@click.command("restore")
@data_option
@json_option
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="A file from `omoide backup`.",
)
@click.option(
    "--force",
    is_flag=True,
    help=(
        "Replace the database the data folder already holds (stop the server first); it is "
        "kept beside it, renamed omoide.db.replaced-TIME."
    ),
)
@friendly
def restore_command(data: str | None, as_json: bool, source: Path, force: bool) -> None:
    """Restore the data folder's database from a backup FILE."""
    from omoide.wiring import restore_database

    settings = _settings(data)
    with folder_hold(settings, "restore", exclusive=True):  # refused while a server runs
        info = restore_database(settings, source, force=force)
    kept = {  # where the database the folder held is kept (--force), or null
        "replaced": str(info.replaced) if info.replaced else None,
        "damaged": str(info.set_aside) if info.set_aside else None,
    }
    _print(
        {**_backup_row(info), **kept},
        as_json,
        lambda d: (
            f"restored {how_many(d['personas'], 'persona')}, "
            f"{how_many(d['memories'], 'memory')} into {d['path']}"
            + (f" (the damaged database is kept as {info.set_aside})" if info.set_aside else "")
        ),
    )
    if info.replaced:  # stderr: stdout stays the one line (or the JSON) it always was
        click.echo(
            f"the database the folder held is kept as {info.replaced} (a copy of it, as a "
            "backup is: delete it once the restored folder is what you want; an erase does "
            "not reach it)",
            err=True,
        )


def register_ops(main: click.Group, persona: click.Group) -> None:
    persona.add_command(key_group)
    main.add_command(backup_command)
    main.add_command(restore_command)
