"""``omoide export``, ``omoide import`` (Omoide files and other systems' files) and
``omoide calibrate``; registered on the main group by :func:`register`.

Results go to stdout (``--json``), progress bars and notes to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from omoide.cli_common import (
    _print,
    built,
    data_option,
    friendly,
    holding,
    how_many,
    json_option,
    persona_option,
)
from omoide.cli_types import USER_ID, OneOf
from omoide.engine import json_text
from omoide.errors import Conflict, InvalidInput
from omoide.service.event_input import check_speaker_name
from omoide.service.peer_import import OPTION_SOURCE, misplaced_option

__all__ = ["register"]

_FILE = click.Path(dir_okay=False, path_type=Path)


def _ensure_persona(app: Any, name: str) -> bool:
    """Create the persona, without a key yet, when missing; whether it was created."""
    try:
        app.auth.create_keyless_persona(name)
    except Conflict:
        return False  # it exists
    return True


def _key_for_import(app: Any, persona: str, created: bool) -> None:
    """Print the key of a persona an import made, now that its file is in. A persona with no
    key at all was made by an import killed before this point (kill -9, a power cut): its
    re-run, which finishes the import, prints it, where the key was never seen."""
    if app.auth.list_keys(persona):
        return
    key = app.auth.issue_key(persona).api_key
    if created:
        click.echo(f"created persona {persona}; api key (shown once): {key}", err=True)
    else:
        click.echo(
            f"persona {persona} had no key (the import that created it was interrupted); "
            f"api key (shown once): {key}",
            err=True,
        )


def _lines(path: Path) -> Iterator[str]:
    """The file's lines; a file that cannot be read (no permission, an I/O error) is refused
    naming it, and bytes that are not UTF-8 naming the line too (:func:`_unreadable`; each was
    a traceback before)."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    hint = json_text.not_utf8_hint(raw) if number == 1 else ""
                    raise _unreadable(
                        path,
                        f"not UTF-8 text: line {number}, byte {exc.start + 1} of the line{hint}",
                    ) from None
    except OSError as exc:
        raise _unreadable(path, exc.strerror or str(exc)) from None


def _text(path: Path) -> str:
    """The whole file as UTF-8 text; refused as :func:`_lines` refuses it."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc.strerror or str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _unreadable(path, f"not UTF-8 text{json_text.not_utf8_hint(raw[:4])}") from None


def _unreadable(path: Path, why: str) -> InvalidInput:
    """The one refusal of a file the command cannot read, whatever the cause (no permission,
    an I/O error, bytes that are not UTF-8): ``cannot read PATH: why``, which the command
    prints as one line on stderr with exit status 1 (``friendly``)."""
    return InvalidInput(f"cannot read {path}: {why}")


@click.command("export")
@data_option
@persona_option
@click.option("--out", "out", type=_FILE, default=None, help="File to write (default: stdout).")
@click.option(
    "--with-vectors",
    is_flag=True,
    help="Include the embedding vectors (else import embeds the texts again).",
)
@friendly
def export_command(data: str | None, persona: str, out: Path | None, with_vectors: bool) -> None:
    """Write every memory, version, link, block, state, setting and conversation of a persona
    as JSON Lines."""
    with built(data) as app:
        if out is not None:
            from omoide.wiring import refuse_export_over

            refuse_export_over(app.settings, out)
        lines = app.transfer.export(persona, with_vectors=with_vectors)
        if out is None:
            for line in lines:
                sys.stdout.write(line)
            return
        # A file is written beside its name and renamed over it, so a failed export never leaves a
        # truncated file under the name. What exists and is no file (/dev/stdout, a named pipe, a
        # device) is written to as it is: it was replaced by a file of that name (root's
        # --out /dev/stdout turned /dev/stdout into a file).
        special = out.exists() and not out.is_file()
        partial = out if special else out.with_name(out.name + ".partial")
        count = 0
        try:
            with partial.open("w", encoding="utf-8") as handle:
                for line in lines:
                    handle.write(line)
                    count += 1
        except OSError as exc:  # a missing folder, no permission, a full disk: a traceback before
            if not special:
                partial.unlink(missing_ok=True)
            raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from None
        if not special:
            partial.replace(out)
        click.echo(f"exported persona {persona}: {how_many(count, 'line')} to {out}", err=True)


@click.command("import")
@data_option
@json_option
@persona_option(help="Persona name (created if missing).")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--merge",
    is_flag=True,
    help="An Omoide export: import into a persona that already holds data (what it already "
    "holds is skipped; a session it holds with other turns is refused). Another --from "
    "always merges.",
)
@click.option(
    "--from",
    "source",
    type=OneOf(["omoide", "mem0", "mcp-memory", "chat"]),
    default="omoide",
    show_default=True,
    help="What wrote the file.",
)
@click.option(
    "--user-id", default=None, type=USER_ID, help="mem0: import only this user_id's memories."
)
@click.option(
    "--user-name",
    default=None,
    help="chat: the speaker name for the user's turns (default: user).",
)
@click.option(
    "--assistant-name",
    default=None,
    help="chat: the speaker name for the assistant's turns (default: the persona).",
)
@friendly
def import_command(
    data: str | None,
    as_json: bool,
    persona: str,
    file: Path,
    merge: bool,
    source: str,
    user_id: str | None,
    user_name: str | None,
    assistant_name: str | None,
) -> None:
    """Import FILE into a persona: an Omoide export (restored as it was), or another system's
    file (--from mem0 | mcp-memory | chat)."""
    for option, name in (("--user-name", user_name), ("--assistant-name", assistant_name)):
        check_speaker_name(name, option)  # as HTTP checks user_name: "" was "not given"
    given = {"user_id": user_id, "user_name": user_name, "assistant_name": assistant_name}
    misplaced = misplaced_option(source, given)
    if misplaced is not None:  # ignoring it would import otherwise than asked
        option = "--" + misplaced.replace("_", "-")
        raise InvalidInput(
            f"{option} applies only to --from {OPTION_SOURCE[misplaced]}, and this import is "
            f"--from {source}: leave it out, or give the --from it belongs to"
        )
    if merge and source != "omoide":  # accepted and ignored before: the import merges anyway
        raise InvalidInput(
            f"--merge applies only to an Omoide export (--from omoide); a --from {source} "
            "import always merges (it adds to what the persona holds, skipping what it holds "
            "already): leave --merge out"
        )
    request = _ImportRequest(file, merge, source, user_id, user_name, assistant_name, as_json)
    with holding(data, "import") as app:
        _import(app, persona, request)


@dataclass(frozen=True)
class _ImportRequest:
    """What ``omoide import`` was asked to do (its options, as given)."""

    file: Path
    merge: bool
    source: str
    user_id: str | None
    user_name: str | None
    assistant_name: str | None
    as_json: bool


def _import(app: Any, persona: str, request: _ImportRequest) -> None:
    """Import into the persona, creating it when missing; a persona created here is erased
    again when the import fails, so a refused file leaves nothing behind."""
    created = _ensure_persona(app, persona)
    try:
        _import_into(app, persona, request)
    except BaseException:
        if created:
            app.forget.delete_persona(persona)
        raise
    _key_for_import(app, persona, created)


def _import_into(app: Any, persona: str, request: _ImportRequest) -> None:
    file, source, as_json = request.file, request.source, request.as_json
    if source == "omoide":
        total = app.transfer.count_to_embed(lambda: _lines(file))
        with click.progressbar(length=total, label="embedding", file=sys.stderr) as bar:
            report = app.transfer.import_lines(
                persona, lambda: _lines(file), merge=request.merge, on_progress=bar.update
            )
        out = report.as_dict()
        _print(
            out,
            as_json,
            lambda d: (
                f"imported into {persona}: {how_many(d['memories'], 'memory')}, "
                f"{how_many(d['sessions'], 'session')} ({how_many(d['events'], 'turn')}, "
                f"{how_many(d['episodes'], 'episode')}), {how_many(d['blocks'], 'block')}, "
                f"{how_many(d['state'], 'state row')}, {how_many(d['links'], 'link')}; "
                f"{d['skipped']} already there, {how_many(d['duplicates'], 'duplicate')} skipped"
                + (
                    f"; {how_many(len(d['moved_keys']), 'key')} moved (another persona of this "
                    "folder holds them; --json maps each to its new key)"
                    if d["moved_keys"]
                    else ""
                )
                + (
                    f"; {how_many(len(d['duplicates_kept']), 'duplicate')} written as their own "
                    "memories, as pointers sent to the memories they duplicate would run in a ring"
                    if d["duplicates_kept"]
                    else ""
                )
                + (
                    f"; {how_many(d['controls_replaced'], 'control character')} in tags, "
                    "emotion labels or state values read as spaces"
                    if d["controls_replaced"]
                    else ""
                )
            ),
        )
        return
    text = _text(file)
    with click.progressbar(
        length=0, label=f"importing {source}", file=sys.stderr, show_pos=True
    ) as bar:
        report = app.peers.import_text(
            persona,
            source,
            text,
            user_id=request.user_id,
            user_name=request.user_name,
            assistant_name=request.assistant_name,
            on_progress=bar.update,
        )
    if source == "chat":
        click.echo("segmenting and consolidating the conversations…", err=True)
        app.queue.run_ready(persona)
    _print(
        report.as_dict(),
        as_json,
        lambda d: (
            f"imported into {persona} from {source}: "
            f"{how_many(d['memories'], 'memory')} "
            f"({how_many(d['duplicates'], 'duplicate')} skipped), {how_many(d['links'], 'link')}, "
            f"{how_many(d['sessions'], 'session')} ({how_many(d['events'], 'turn')})"
            + (
                f"; {how_many(d['without_text'], 'message')} without text left out"
                if d.get("without_text")
                else ""
            )
            + (
                f"; {how_many(d['skipped'], 'blank observation')} skipped"
                if d.get("skipped")
                else ""
            )
        ),
    )


def register(main: click.Group) -> None:
    """Add this module's commands to the ``omoide`` group."""
    for command in (export_command, import_command, calibrate_command):
        main.add_command(command)


@click.command("calibrate")
@data_option
@json_option
@click.option("--dry-run", is_flag=True, help="Measure and print; store nothing.")
@friendly
def calibrate_command(data: str | None, as_json: bool, dry_run: bool) -> None:
    """Measure the configured embedder (OMOIDE_EMBEDDER) on the bundled calibration pairs and
    store its calibration in the data folder, so similarity thresholds keep their meaning.

    For an external embedder (openai, sentence-transformers:…); e5, use and hash ship their
    own calibration and are refused."""
    from omoide.cli_common import _settings
    from omoide.clock import SystemClock
    from omoide.service.calibrate import CalibrationService, require_calibratable_setting
    from omoide.wiring import build_embedder

    settings = _settings(data)
    require_calibratable_setting(settings.embedder)  # before e5 loads its model (seconds)
    embedder = build_embedder(settings)
    service = CalibrationService(embedder, settings.data_dir, SystemClock())
    service.require_calibratable()  # refused before "measuring…" is printed
    click.echo(f"measuring {embedder.model_id} ({embedder.dim} dimensions)…", err=True)
    report = service.calibrate(save=not dry_run)
    out = {
        "model_id": report.model_id,
        "anchors": [list(a) for a in report.calibration.anchors],
        "pairs": report.pairs,
        "saved_to": str(report.saved_to) if report.saved_to else None,
        **{
            name: {
                "threshold": round(score.threshold, 4),
                "recall": round(score.recall, 3),
                "false_rate": round(score.false_rate, 3),
                "duplicates": score.duplicates,
                "others": score.others,
            }
            for name, score in (("tuning", report.tuning), ("validation", report.validation))
        },
    }
    _print(
        out,
        as_json,
        lambda d: "\n".join(
            [
                f"{d['model_id']}: anchors (spec, cosine) {d['anchors']}",
                *(
                    f"{name}: duplicates caught {d[name]['recall']:.0%} of "
                    f"{d[name]['duplicates']}, "
                    f"others wrongly dropped {d[name]['false_rate']:.0%} of {d[name]['others']}"
                    for name in ("tuning", "validation")
                ),
                f"stored in {d['saved_to']}" if d["saved_to"] else "(dry run: nothing stored)",
            ]
        ),
    )
