"""Dedup's notation across a pair: a distance, a weight or a temperature in another unit (pure).

A part of ``dedup_notation.pair_notation`` (twentieth round). Trigger: the two texts of a
near-copy hold one quantity in two units ("100-mile" / "160 km", "70 kg" / "11 stone", "20 °C" /
"68 °F", 2キロ / 2000m; since the twenty-ninth round also millimetres and centimetres, 3センチ /
30ミリ, 150 cm / 1500 mm). Why: each was read as a changed number. Outcome: ``second`` with
each such quantity written as ``first`` writes it when the two values are the same (within 5%,
the rounding of a conversion: 5 km is "3 miles"; a temperature within 1 degree). A value that
differs ("5 km" / "5 miles", 70 kg / 11 lb) stays apart. An hour on the 12-hour clock against
the same hour + 12 (3:30 / 15:30) is not read alike: a text on the 24-hour clock writes 10:15
for the morning, and "10:15" / "22:15" is a changed flight (tried in the twentieth round, taken
back). Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.lexicon import JA_COMPOUND_UNITS

__all__ = ["same_quantities"]

# unit -> (dimension, the unit in the dimension's base); キロ is a kilometre or a kilogram.
_UNITS: dict[str, tuple[tuple[str, float], ...]] = {
    "km": (("length", 1000.0),),
    "m": (("length", 1.0),),
    "mi": (("length", 1609.344),),
    "mile": (("length", 1609.344),),
    "miles": (("length", 1609.344),),
    "ft": (("length", 0.3048),),
    "cm": (("length", 0.01),),
    "mm": (("length", 0.001),),
    "kg": (("weight", 1.0),),
    "kilo": (("weight", 1.0),),
    "kilos": (("weight", 1.0),),
    "g": (("weight", 0.001),),
    "lb": (("weight", 0.45359237),),
    "lbs": (("weight", 0.45359237),),
    "stone": (("weight", 6.35029318),),
    "st": (("weight", 6.35029318),),
    "°c": (("celsius", 1.0),),
    "°f": (("celsius", 1.0),),
    "キロ": (("length", 1000.0), ("weight", 1.0)),
    "メートル": (("length", 1.0),),
    "マイル": (("length", 1609.344),),
    "グラム": (("weight", 0.001),),
    "ポンド": (("weight", 0.45359237),),
    # (twenty-ninth round) the metric lengths' smaller steps: 2センチ / 20ミリ, 90 cm / 900 mm
    "センチ": (("length", 0.01),),
    "ミリ": (("length", 0.001),),
}
# A compound unit word is its symbol's unit (``lexicon.JA_COMPOUND_UNITS``: キロメートル is km,
# センチメートル cm), for the symbols above.
_UNITS.update(
    {word: _UNITS[symbol] for word, symbol in JA_COMPOUND_UNITS.items() if symbol in _UNITS}
)
_QUANTITY = re.compile(
    r"(?<![0-9.£$€¥₹])([0-9]+(?:\.[0-9]+)?)[\s-]?"
    rf"({'|'.join(sorted(_UNITS, key=len, reverse=True))})"
    # not the start of a longer word (ミリリットル, キロカロリー, "mmol")
    r"(?![a-zA-Z\u30a1-\u30fa\u30fc])",
    re.IGNORECASE,
)
_SHARE = 0.05


def _quantities(text: str) -> list[tuple[float, str, int, int]]:
    return [
        (float(m.group(1)), m.group(2).lower(), m.start(), m.end())
        for m in _QUANTITY.finditer(text)
    ]


def _base(value: float, unit: str, dimension: str) -> float | None:
    for dim, factor in _UNITS[unit]:
        if dim == dimension:
            return (value - 32) * 5 / 9 if unit == "°f" else value * factor
    return None


def _same(x: tuple[float, str], y: tuple[float, str]) -> bool:
    if x[1] == y[1]:
        return False
    for dimension, _ in _UNITS[x[1]]:
        a, b = _base(*x, dimension), _base(*y, dimension)
        if a is None or b is None:
            continue
        if dimension == "celsius":
            return abs(a - b) <= 1.0
        if a > 0 and b > 0 and abs(a - b) <= _SHARE * max(a, b):
            return True
    return False


def same_quantities(first: str, second: str) -> str:
    """``second`` with each quantity that ``first`` holds in another unit (and ``second`` does
    not hold as ``first`` writes it) written as ``first`` writes it."""
    mine, theirs = _quantities(first), _quantities(second)
    held = {(v, u) for v, u, _, _ in mine}
    written = {(v, u) for v, u, _, _ in theirs}
    out, last = [], 0
    for value, unit, start, end in theirs:
        if (value, unit) in held:
            continue
        match = next(
            (
                first[s:e]
                for v, u, s, e in mine
                if (v, u) not in written and _same((v, u), (value, unit))
            ),
            None,
        )
        if match is not None:
            out += [second[last:start], match]
            last = end
    return "".join(out) + second[last:]
