"""Which rings through a persona's memories a merge refuses (``transfer.chains``): the chains
as they will be stored, the file's memories the persona holds skipped, moved keys followed; a
ring of held memories alone let be; and which duplicates a merge would close a ring by
sending their pointers to the memory they duplicate (``StoredChains``). (Through HTTP and the
CLI: tests/integration/api/test_qa42_import_chains.py, test_qa42_merge_rings.py.)"""

from __future__ import annotations

import pytest

from omoide.errors import InvalidInput
from omoide.model.transfer import ExistingRows
from omoide.service.transfer.chains import StoredChains, check_cycles, check_persona_cycles


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


def _summaries(**named: tuple[str, int]) -> dict[str, dict[str, tuple[str, int]]]:
    return {"superseded_by": {}, "summary_ref": dict(named)}


def test_a_duplicate_whose_own_memory_leads_to_it_closes_a_ring() -> None:
    """a → x → b, b a duplicate of a: x would name a."""
    chains = StoredChains(_summaries(a=("x", 2), x=("b", 3)), _held(set(), {}), {})
    assert chains.ring_if_merged("b", "a", {}) == "summary_ref"
    assert chains.ring_if_merged("x", "b", {}) is None  # b's chain names nothing


def test_a_ring_closed_by_two_merges_is_found_at_the_second() -> None:
    """a → p → d and c → q → b: b into a closes none; then d into c would (c → q → a → p →
    c), whether b's merge is still pending in the batch or applied."""
    file = _summaries(a=("p", 2), p=("d", 3), c=("q", 4), q=("b", 5))
    chains = StoredChains(file, _held(set(), {}), {})
    assert chains.ring_if_merged("b", "a", {}) is None
    assert chains.ring_if_merged("d", "c", {}) is None  # b not merged: q names b, no memory
    assert chains.ring_if_merged("d", "c", {"b": "a"}) == "summary_ref"
    chains.merge({"b": "a"})
    assert chains.points["summary_ref"]["q"] == "a"
    assert chains.ring_if_merged("d", "c", {}) == "summary_ref"


def test_a_held_chain_is_followed_and_a_held_ring_passed() -> None:
    """The duplicated memory is held: its stored pointers are followed (h → n, n the file's,
    names b); a ring of held memories on the way ends the walk."""
    existing = ExistingRows(
        memory_keys=frozenset({"h", "h1", "h2"}),
        session_ids=frozenset(),
        block_names=frozenset(),
        state_rows=frozenset(),
        pointers={"superseded_by": {}, "summary_ref": {"h": "n", "h1": "h2", "h2": "h1"}},
    )
    chains = StoredChains(_summaries(n=("b", 3)), existing, {})
    assert chains.ring_if_merged("b", "h", {}) == "summary_ref"
    assert chains.ring_if_merged("b", "h1", {}) is None


def test_a_long_ring_is_named_by_its_ends_and_how_many_between() -> None:
    """A ring of 3,000 memories (1,500 held, 1,500 of the file) was a refusal of 75,000
    characters naming every key; now its first six keys, how many more, and its last two."""
    keys = [f"m{i:04}" for i in range(3000)]
    held = {k for i, k in enumerate(keys) if i % 2}
    ring = {k: keys[(i + 1) % len(keys)] for i, k in enumerate(keys)}
    file = _file(**{k: (ring[k], 10 + i) for i, k in enumerate(keys) if k not in held})
    with pytest.raises(InvalidInput) as refused:
        check_persona_cycles(file, _held(held, {k: ring[k] for k in held}), {}, "rin")
    message = refused.value.message
    assert len(message) < 600, message
    assert (
        "holds: 'm0000' → 'm0001' → 'm0002' → 'm0003' → 'm0004' → 'm0005' → … 2,993 more … → "
        "'m2999' → 'm0000' (held: 'm0001', 'm0003', 'm0005', 'm0007', 'm0009', 'm0011', "
        "'m0013', 'm0015' and 1,492 more)"
    ) in message


def test_a_long_ring_of_the_files_own_is_named_as_short() -> None:
    chain = {f"m{i:04}": (f"m{(i + 1) % 3000:04}", 7 + i) for i in range(3000)}
    with pytest.raises(InvalidInput) as refused:
        check_cycles(chain, "summary_ref")
    assert refused.value.message.startswith(
        "line 7: memory record: summary_ref runs in a cycle: 'm0000' → 'm0001' → 'm0002' → "
        "'m0003' → 'm0004' → 'm0005' → … 2,993 more … → 'm2999' → 'm0000'; "
    )
    assert len(refused.value.message) < 400
