"""Write dedup's kanji reading table (``src/omoide/engine/classify/kanji_readings.json``) from the
Unicode Han Database: each JIS X 0208 kanji's Japanese on and kun readings (``kJapaneseOn``,
``kJapaneseKun``, romanised there) in hiragana.

Why: a near-copy that writes one word in kanji and the other in kana (粘った / ねばった, 麓 /
ふもと) reads as a changed word to the veto and the judge; the server has no reader (a
morphological analyser's dictionary was ~200 MB), but a kanji's readings are a small table,
enough to check that the kana *can* spell the kanji (``engine.classify.dedup_kanji``).
Source: Unihan (Debian package ``unicode-data``: ``/usr/share/unicode/Unihan_*.txt.bz2``),
Unicode License v3. Run: ``python bench/make_kanji_readings.py [UNIHAN_DIR]``.
"""

from __future__ import annotations

import bz2
import json
import re
import sys
from pathlib import Path

from lib.reports import REPO

OUT = REPO / "src" / "omoide" / "engine" / "classify" / "kanji_readings.json"
_ROWS = "aiueo"
_KANA = {
    "": "あいうえお",
    "k": "かきくけこ",
    "g": "がぎぐげご",
    "s": "さしすせそ",
    "z": "ざじずぜぞ",
    "t": "たちつてと",
    "d": "だぢづでど",
    "n": "なにぬねの",
    "h": "はひふへほ",
    "b": "ばびぶべぼ",
    "p": "ぱぴぷぺぽ",
    "m": "まみむめも",
    "r": "らりるれろ",
}
_SYLLABLES = {c + v: row[i] for c, row in _KANA.items() for i, v in enumerate(_ROWS)}
_SYLLABLES.update(
    {"ya": "や", "yu": "ゆ", "yo": "よ", "wa": "わ", "wo": "を", "shi": "し", "chi": "ち"}
)
_SYLLABLES.update({"tsu": "つ", "fu": "ふ", "ji": "じ", "n": "ん"})
for c, kana in (
    ("ky", "き"),
    ("gy", "ぎ"),
    ("sh", "し"),
    ("j", "じ"),
    ("ch", "ち"),
    ("ny", "に"),
    ("hy", "ひ"),
    ("by", "び"),
    ("py", "ぴ"),
    ("my", "み"),
    ("ry", "り"),
):
    for v, small in (("a", "ゃ"), ("u", "ゅ"), ("o", "ょ")):
        _SYLLABLES[c + v] = kana + small
_TOKEN = re.compile("|".join(sorted(_SYLLABLES, key=len, reverse=True)))


def hiragana(romaji: str) -> str | None:
    """A Hepburn reading in hiragana (a doubled consonant as っ), or None when it does not
    parse."""
    text, out, i = romaji.lower(), [], 0
    while i < len(text):
        if i + 1 < len(text) and text[i] == text[i + 1] and text[i] not in "aiueon":
            out.append("っ")
            i += 1
            continue
        if text[i] == "t" and text[i + 1 : i + 3] == "ch":
            out.append("っ")
            i += 1
            continue
        match = _TOKEN.match(text, i)
        if match is None:
            return None
        out.append(_SYLLABLES[match.group()])
        i = match.end()
    return "".join(out)


def _fields(path: Path, names: set[str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    with bz2.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("U+"):
                code, field, value = line.rstrip("\n").split("\t", 2)
                if field in names:
                    out.setdefault(chr(int(code[2:], 16)), {})[field] = value
    return out


def main() -> None:
    unihan = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode")
    jis = _fields(unihan / "Unihan_OtherMappings.txt.bz2", {"kJis0"})
    readings = _fields(unihan / "Unihan_Readings.txt.bz2", {"kJapaneseOn", "kJapaneseKun"})
    table = {}
    for kanji in sorted(jis):
        words = " ".join(readings.get(kanji, {}).values()).split()
        kana = sorted({k for k in map(hiragana, words) if k})
        if kana:
            table[kanji] = " ".join(kana)
    OUT.write_text(
        json.dumps(
            {
                "source": "Unicode Han Database (Unihan) 15.0, kJapaneseOn and kJapaneseKun of "
                "the kanji with a kJis0 code, in hiragana (bench/make_kanji_readings.py)",
                "license": "Unicode License v3 (https://www.unicode.org/license.txt); "
                "Copyright © 1991-2022 Unicode, Inc.",
                "readings": table,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )
        + "\n",
        encoding="utf-8",
    )
    print(len(table), "kanji;", OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
