"""``omoide persona create|list|delete`` (its ``key`` commands: ``cli_ops``)."""

from __future__ import annotations

import click

from omoide.cli_common import (
    SCRUB_PENDING,
    _print,
    built,
    data_option,
    friendly,
    holding,
    how_many,
    json_option,
    on_named_persona,
)

__all__ = ["persona"]


@click.group()
def persona() -> None:
    """Create, list and delete personas."""


@persona.command("create")
@on_named_persona
@friendly
def persona_create(data: str | None, as_json: bool, name: str) -> None:
    """Create persona NAME and print its API key (shown only once)."""
    with built(data) as app:
        created, key = app.auth.create_persona(name)
        _print(
            {"name": created.name, "api_key": key},
            as_json,
            lambda d: f"created persona {d['name']}\napi key (shown once): {d['api_key']}",
        )


@persona.command("list")
@data_option
@json_option
@friendly
def persona_list(data: str | None, as_json: bool) -> None:
    """List personas with their active memory counts."""
    with built(data) as app:
        rows = [
            {"name": p.name, "created_at": p.created_at.isoformat(), "memories": p.memories}
            for p in app.maintenance.personas()
        ]
        _print(
            rows,
            as_json,
            lambda rs: (
                "\n".join(f"{r['name']}\t{how_many(r['memories'], 'memory')}" for r in rs)
                or "(no personas)"
            ),
        )


@persona.command("delete")
@on_named_persona
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@friendly
def persona_delete(data: str | None, as_json: bool, name: str, yes: bool) -> None:
    """Erase persona NAME and everything it remembers; its keys stop working."""
    with holding(data, "persona delete") as app:
        app.maintenance.require_persona(name)  # an unknown name fails before the question
        if not yes:
            click.confirm(
                f"Erase persona {name} with all its memories and conversations? "
                "This cannot be undone",
                abort=True,
                err=True,
            )
        erased = app.forget.delete_persona(name)
    _print(
        {
            "name": name,
            "status": "erased",
            "memories": erased.memories,
            "sessions": erased.sessions,
            "jobs_discarded": erased.jobs,
            "scrub_pending": app.scrub_pending,  # after the wait of its close
        },
        as_json,
        lambda d: (
            f"erased persona {d['name']} ({how_many(d['memories'], 'memory')}, "
            f"{how_many(d['sessions'], 'session')}"
            + (
                f", {how_many(d['jobs_discarded'], 'background job')} discarded"
                if d["jobs_discarded"]
                else ""
            )
            + ")"
            + (f"\n{SCRUB_PENDING}" if d["scrub_pending"] else "")
        ),
    )
