"""Which rings through a persona's memories a merge refuses (``transfer.chains``): the chains
as they will be stored, the file's memories the persona holds skipped, moved keys followed; a
ring of held memories alone let be. (Through HTTP and the CLI:
tests/integration/api/test_qa42_import_chains.py.)"""

from __future__ import annotations

import pytest

from omoide.errors import InvalidInput
from omoide.model.transfer import ExistingRows
from omoide.service.transfer.chains import check_persona_cycles


def _held(keys: set[str], pointers: dict[str, str]) -> ExistingRows:
    return ExistingRows(
        memory_keys=frozenset(keys),
        session_ids=frozenset(),
        block_names=frozenset(),
        state_rows=frozenset(),
        pointers={"superseded_by": pointers, "summary_ref": {}},
    )


def _file(**named: tuple[str, int]) -> dict[str, dict[str, tuple[str, int]]]:
    return {"superseded_by": dict(named), "summary_ref": {}}


def test_a_ring_of_two_file_memories_and_a_held_one_names_all_three() -> None:
    """n1 → h → n2 → n1: the file alone makes none (n2 names n1 only through h)."""
    existing = _held({"h"}, {"h": "n2"})
    with pytest.raises(InvalidInput) as refused:
        check_persona_cycles(_file(n2=("n1", 5), n1=("h", 4)), existing, {}, "rin")
    assert refused.value.fields["line"] == 4 and refused.value.fields["key"] == "n1"
    assert (
        "line 4: memory record: superseded_by runs in a cycle through a memory persona 'rin' "
        "holds: 'n1' → 'h' → 'n2' → 'n1' (held: 'h')"
    ) in refused.value.message


def test_a_file_memory_the_persona_holds_is_skipped() -> None:
    """h names n, the file's n names h: n is held, so the stored n (naming nothing) stays."""
    check_persona_cycles(_file(n=("h", 3)), _held({"h", "n"}, {"h": "n"}), {}, "rin")


def test_a_ring_of_held_memories_alone_is_let_be() -> None:
    """n closes into h1 ↔ h2 (an older version's): no ring holds a memory of the file."""
    existing = _held({"h1", "h2"}, {"h1": "h2", "h2": "h1"})
    check_persona_cycles(_file(n=("h1", 3)), existing, {}, "rin")


def test_a_moved_key_is_followed_as_stored() -> None:
    """The file's n is stored as n_moved (another persona holds n): h naming n names no
    memory the import writes, so no ring; h naming n_moved closes one, shown by the file's
    key."""
    moved = {"n": "n_moved"}
    check_persona_cycles(_file(n=("h", 3)), _held({"h"}, {"h": "n"}), moved, "rin")
    with pytest.raises(InvalidInput) as refused:
        check_persona_cycles(_file(n=("h", 3)), _held({"h"}, {"h": "n_moved"}), moved, "rin")
    assert "'n' → 'h' → 'n' (held: 'h')" in refused.value.message
