"""The pointers of a memory to another that never run in a cycle (``superseded_by``,
``summary_ref``): an import refuses a file whose memories would close one, among themselves or
(a merge) through memories the persona holds. Checked before anything is written; a merge
then keeps its chains so (:class:`StoredChains`) while it finds duplicates.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from omoide.engine.errors import named
from omoide.errors import InvalidInput
from omoide.model.transfer import ExistingRows

__all__ = ["CHAINS", "StoredChains", "check_cycles", "check_persona_cycles"]

# Each pointer, and why a chain of them ends
CHAINS = {
    "superseded_by": "a closed memory names the one that replaced it, and a chain of them ends "
    "at the current one",
    "summary_ref": "a memory names one written after it (evolution's newer memory of it), "
    "and a chain of them ends at the latest",
}


def _ring(points: Mapping[str, str], starts: Collection[str]) -> list[str] | None:
    """The first ring holding one of ``starts`` that following ``points`` (a key -> the key
    it names) from them runs into, its keys in order, or None (a ring of other keys that a
    chain from them runs into is passed by)."""
    done: set[str] = set()
    for start in starts:
        path: list[str] = []
        on_path: set[str] = set()  # path's keys, read in constant time (a chain of thousands)
        key = start
        while key in points and key not in done and key not in on_path:
            path.append(key)
            on_path.add(key)
            key = points[key]
        done.update(path)
        ring = path[path.index(key) :] if key in on_path else []
        if any(k in starts for k in ring):
            return ring
    return None


def _from(ring: list[str], first: str) -> list[str]:
    """``ring`` turned to start at ``first``, and back to it."""
    at = ring.index(first)
    return [*ring[at:], *ring[:at], first]


# A ring's keys a refusal names: at most this many, the rest counted (a ring of 3,000 memories
# was a message of 75,000 characters).
_SHOWN = 8


def _path(keys: list[str]) -> str:
    """``'A' → 'B' → 'A'``; a long ring as its first keys, how many more, and its last two."""
    if len(keys) <= _SHOWN:
        return " → ".join(map(repr, keys))
    head, tail = keys[: _SHOWN - 2], keys[-2:]
    left = len(keys) - len(head) - len(tail)
    return " → ".join([*map(repr, head), f"… {left:,} more …", *map(repr, tail)])


def _listed(keys: list[str]) -> str:
    """``'A', 'B'``; a long list as its first keys and how many more."""
    shown = ", ".join(map(repr, keys[:_SHOWN]))
    return shown if len(keys) <= _SHOWN else f"{shown} and {len(keys) - _SHOWN:,} more"


def check_cycles(chain: Mapping[str, tuple[str, int]], name: str) -> None:
    """Refuse memories of the file closed by each other in a ring (A's ``superseded_by``
    names B, B's names A): evolution closes a fact by a newer one, so a chain of them ends at
    the current fact; in a ring none is current (reading follows it loop-guarded). So too
    for ``summary_ref``: a summary is written after what it sums up. ``chain``: a memory's
    key -> (the key it names in ``name``, its line). Named by its keys from the ring's first
    line."""
    ring = _ring({key: target for key, (target, _) in chain.items()}, chain)
    if ring is None:
        return
    first = min(ring, key=lambda k: chain[k][1])
    number = chain[first][1]
    names = _path(_from(ring, first))
    raise InvalidInput(
        f"line {number}: memory record: {name} runs in a cycle: {names}; "
        f"{CHAINS[name]}; nothing was imported",
        line=number,
        record="memory",
        field=name,
        key=first,
    )


class StoredChains:
    """A merge's chains as they will be stored: the persona's pointers and those of the file's
    memories the import writes, by the keys they are stored under (``chains`` as
    :func:`check_cycles` takes each; ``keys``: a file key moved on import -> its stored key).
    A memory of the file whose key the persona holds is skipped, so the held one's pointers
    stand."""

    def __init__(
        self,
        chains: Mapping[str, Mapping[str, tuple[str, int]]],
        existing: ExistingRows,
        keys: Mapping[str, str],
    ) -> None:
        self.points: dict[str, dict[str, str]] = {}  # a pointer -> a key -> the key it names
        self.written: dict[str, dict[str, str]] = {}  # a stored key written -> the file's key
        for name, chain in chains.items():
            points = dict(existing.pointers.get(name, {}))
            written: dict[str, str] = {}
            for key, (target, _) in chain.items():
                stored = keys.get(key, key)
                if stored not in existing.memory_keys:
                    points[stored] = keys.get(target, target)
                    written[stored] = key
            self.points[name] = points
            self.written[name] = written

    def ring_if_merged(self, key: str, into: str, moved: Mapping[str, str]) -> str | None:
        """The pointer whose chain would run in a ring were the file's memory ``key`` not
        written and the pointers naming it to name ``into`` instead (a merge found it a
        duplicate of ``into``), or None; ``moved``: the keys found duplicates before it whose
        pointers are not yet merged (:meth:`merge`). A ring closes when ``into``'s own chain
        reaches ``key``: the memory naming ``key`` would name ``into`` (a held one naming it,
        left so by an older version, would not be rewritten; the memory is written for it
        all the same, so that pointer names one)."""
        for name, points in self.points.items():
            at, seen = into, set()
            while at in points and at not in seen:
                seen.add(at)
                at = moved.get(points[at], points[at])
                if at == key:
                    return name
        return None

    def merge(self, moved: Mapping[str, str]) -> None:
        """The memories of ``moved`` (a key found a duplicate -> the memory it duplicates)
        not written, and the pointers that named them naming the memory they duplicate."""
        for points in self.points.values():
            for key in moved:
                points.pop(key, None)
            for key, target in points.items():
                points[key] = moved.get(target, target)


def check_persona_cycles(
    chains: Mapping[str, Mapping[str, tuple[str, int]]],
    existing: ExistingRows,
    keys: Mapping[str, str],
    persona: str,
) -> StoredChains:
    """Refuse a file whose memories would close a ring through memories ``persona`` holds (a
    merge): a memory of the file names a held one whose own chain leads back to one of the
    file's. Today's writes never leave a held pointer naming a memory the persona lacks, but
    an import made before pointers were checked may have, and the file may bring that memory.
    The chains are taken as they will be stored (:class:`StoredChains`, returned for the
    merge's duplicates to keep them so). A ring of held memories alone is none of the file's
    doing and is let be. Named from the first line among the file's memories in it."""
    stored = StoredChains(chains, existing, keys)
    for name, chain in chains.items():
        points, written = stored.points[name], stored.written[name]
        ring = _ring(points, written)
        if ring is None:
            continue
        first = min((written[k] for k in ring if k in written), key=lambda k: chain[k][1])
        number = chain[first][1]
        shown = [written.get(k, k) for k in _from(ring, keys.get(first, first))]
        held = [k for k in ring if k not in written]
        raise InvalidInput(
            f"line {number}: memory record: {name} runs in a cycle through "
            f"{'a memory' if len(held) == 1 else 'memories'} persona {named(persona)} holds: "
            f"{_path(shown)} (held: {_listed(held)}); "
            f"{CHAINS[name]}; nothing was imported",
            line=number,
            record="memory",
            field=name,
            key=first,
        )
    return stored
