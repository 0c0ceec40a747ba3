"""A database a newer Omoide has migrated is refused at open, before anything is written (both
stores).

Each store records the migrations applied to its database in ``schema_migrations`` (number and
name). A number this Omoide's list does not hold was applied by a newer Omoide: its tables may
have columns, constraints or meanings this code does not know, so reading them could
misreport and writing them could break what the newer version relies on. The open stops at
once with one line naming both schema versions and what to do (upgrade Omoide), and neither
migrates, nor writes, nor serves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from omoide import __version__
from omoide.errors import Conflict

__all__ = ["newer_than", "refuse_newer"]


def newer_than(recorded: Mapping[int, str], known: Iterable[int], *, where: str) -> str | None:
    """What to say of ``recorded`` (number → name, as the database records them) when it holds
    a migration ``known`` (this Omoide's numbers) does not, or None; ``where`` names the
    database."""
    known_numbers = set(known)
    unknown = sorted(number for number in recorded if number not in known_numbers)
    if not unknown:
        return None
    named = ", ".join(f"{number} ({recorded[number]})" for number in unknown)
    return (
        f"{where} was upgraded by a newer Omoide (schema {max(recorded)}, with migrations "
        f"this one does not know: {named}); this Omoide {__version__} knows schema "
        f"{max(known_numbers)} at most"
    )


def refuse_newer(recorded: Mapping[int, str], known: Iterable[int], *, where: str) -> None:
    """Conflict when ``recorded`` holds a migration ``known`` does not (:func:`newer_than`)."""
    newer = newer_than(recorded, known, where=where)
    if newer is not None:
        raise Conflict(
            f"{newer}. Nothing was written: upgrade Omoide to the version that upgraded it "
            "(or a later one) to use it"
        )
