"""A count and its noun in English, singular for exactly one ("1 turn", "2 turns", "0
memories", "12,345 memories"): the one way the CLI's lines, the MCP tools' text and the log
say how many. Pure."""

from __future__ import annotations

__all__ = ["how_many", "plural"]


def plural(count: int, one: str) -> str:
    """``one`` as ``count`` of it is said: ``plural(1, "memory")`` is "memory",
    ``plural(3, "memory")`` "memories", ``plural(0, "turn")`` "turns"."""
    if count == 1:
        return one
    return one[:-1] + "ies" if one.endswith("ry") else one + "s"


def how_many(count: int, one: str) -> str:
    """``count`` and its noun: ``how_many(1, "memory")`` is "1 memory", ``how_many(3,
    "memory")`` "3 memories", ``how_many(0, "turn")`` "0 turns"; a large count with its
    thousands separated, as every other count in a message is (``too_many``, ``length_said``):
    ``how_many(12345, "memory")`` "12,345 memories"."""
    return f"{count:,} {plural(count, one)}"
