"""A number typed as text (a query parameter, a settings form field, an environment variable,
a CLI option) read as the JSON number it writes, the one form the HTTP API reads in a body.

Python's ``int()`` and ``float()`` read more than this: underscores between digits (``1_0`` is
10), other scripts' digits (``٣``), ``+5``, ``.5``, ``5.``, ``inf``, ``nan``, white space
inside (``" 5"``, with a tab); a user typing ``1_0`` did not mean ten. Full-width forms
(``３０``, ``－１``, ``０．５``, typed with a Japanese input method) are read as their ASCII
letters first (:func:`~omoide.engine.width.half_width`), as every date the API reads is; JSON's
own white space around the number is ignored. The value is then the one the JSON reader gives
(an integer beyond ±(2^53 − 1) or a float that overflows is refused alike), so that it is
checked after, with the same messages, as the API checks that number in a body.
"""

from __future__ import annotations

import re

from omoide.engine import json_text
from omoide.engine.errors import ParameterError, quoted
from omoide.engine.width import half_width

__all__ = ["REFUSED", "read_integer", "read_number", "refusal", "what_number"]

# ASCII digits, a leading minus only, no digit separators; a fraction and an exponent as JSON.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def what_number(kind: type) -> str:
    """What a refusal says ``kind`` takes: "an integer written with the digits 0-9 (…)"."""
    if kind is int:
        return "an integer written with the digits 0-9 (as in JSON: e.g. 5 or 300)"
    return "a number written with the digits 0-9 (as in JSON: e.g. 5, 0.25, 1e3)"


def read_number(text: str, *, kind: type = float, name: str | None = None) -> int | float:
    """The number ``text`` writes. Text that is not a JSON number raises :class:`ParameterError`
    (``field``: ``name``) whose message starts with what was expected ("must be an integer
    written with the digits 0-9 (…), got '1_0'": the caller puts the name of what it reads in
    front); a number out of JSON's exact range raises the reader's
    :class:`~omoide.engine.json_text.JsonTextError`. ``kind`` only words the message; the value
    is JSON's (``1e1`` is the float 10.0, as in a body)."""
    stripped = half_width(text).strip(" \t\r\n")
    if _JSON_NUMBER.fullmatch(stripped) is None:
        raise ParameterError(f"must be {what_number(kind)}, got {quoted(text)}", field=name)
    number: int | float = json_text.loads(stripped)
    return number


def read_integer(text: str, *, name: str | None = None) -> int:
    """The whole number ``text`` writes (:func:`read_number`; ``7.0`` and ``1e1`` are whole);
    a fraction (``7.5``) raises :class:`ParameterError` with ``read_number``'s words ("must be
    an integer written with the digits 0-9 (…), got '7.5'"), the one check of a typed integer
    (the CLI's options, ``OMOIDE_*`` variables, the dashboard's forms)."""
    number = read_number(text, kind=int, name=name)
    if not float(number).is_integer():
        raise ParameterError(f"must be {what_number(int)}, got {quoted(text)}", field=name)
    return int(number)


# What ``read_number`` and ``read_integer`` raise: text that is not a JSON number (or, for
# ``read_integer``, not a whole one), a number out of JSON's range.
REFUSED = (ParameterError, json_text.JsonTextError)


def refusal(what: str, refused: ParameterError | json_text.JsonTextError) -> str:
    """The words of a refusal ``read_number`` raised, after the name of ``what`` was read:
    "top_k must be an integer …, got '1_0'", "OMOIDE_PORT: a number outside …"."""
    if isinstance(refused, ParameterError):
        return f"{what} {refused.message}"
    return f"{what}: {refused.message}"
