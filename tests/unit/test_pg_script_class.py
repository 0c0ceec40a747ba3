"""The PostgreSQL adapter decides a text's script group (``language_of``) in SQL with a regex
class: it must say "CJK" for exactly the characters ``has_cjk`` does."""

from __future__ import annotations

import re

from omoide.engine.lang import CJK_CLASS, has_cjk


def test_the_sql_class_matches_has_cjk_on_every_character() -> None:
    pattern = re.compile(CJK_CLASS)
    for cp in range(0x30000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        assert bool(pattern.search(ch)) == has_cjk(ch), hex(cp)
