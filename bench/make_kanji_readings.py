"""Write dedup's kanji reading table (``src/omoide/engine/classify/kanji_readings.json``) from the
Unicode Han Database: each JIS X 0208 kanji's Japanese on and kun readings (``kJapaneseOn``,
``kJapaneseKun``, romanised there) in hiragana.

Why: a near-copy that writes one word in kanji and the other in kana (粘った / ねばった, 麓 /
ふもと) reads as a changed word to the veto and the judge; the server has no reader (a
morphological analyser's dictionary was ~200 MB), but a kanji's readings are a small table,
enough to check that the kana *can* spell the kanji (``engine.classify.dedup_kanji``).
Source: Unihan (Debian package ``unicode-data``: ``/usr/share/unicode/Unihan_*.txt.bz2``),
Unicode License v3. Session 50 adds the readings IPADIC's words of one kanji give (Debian
package ``mecab-ipadic``: ``/usr/share/mecab/dic/ipadic/*.csv``, NAIST's BSD-style licence,
whose notice the table carries): a kanji alone (髭 ひげ), or a verb's or an adjective's dictionary
form of one kanji and one to three kana (浸かる つかる, 貯まる たまる, 潰す つぶす), which Unihan's
kun readings lack. Run: ``python bench/make_kanji_readings.py [UNIHAN_DIR [IPADIC_DIR]]``.
"""

from __future__ import annotations

import bz2
import csv
import io
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


_IPADIC_FILES = (
    "Verb.csv",
    "Adj.csv",
    "Noun.csv",
    "Noun.verbal.csv",
    "Noun.adjv.csv",
    "Noun.adverbal.csv",
    "Adverb.csv",
)
_ONE_KANJI = re.compile(r"([\u4e00-\u9fff])([\u3041-\u3096]*)")
_HIRAGANA = re.compile(r"[\u3041-\u3096ー]+")
IPADIC_NOTICE = (
    "IPADIC (mecab-ipadic 2.7.0): Copyright 2000, 2001, 2002, 2003 Nara Institute of Science "
    "and Technology. All Rights Reserved. Use, reproduction, and distribution of this software "
    "is permitted. Any copy of this software, whether in its original form or modified, must "
    "include both the above copyright notice and the following paragraphs. Nara Institute of "
    "Science and Technology (NAIST), the copyright holders, disclaims all warranties with "
    "regard to this software, including all implied warranties of merchantability and "
    "fitness, in no event shall NAIST be liable for any special, indirect or consequential "
    "damages or any damages whatsoever resulting from loss of use, data or profits, whether in "
    "an action of contract, negligence or other tortuous action, arising out of or in "
    "connection with the use or performance of this software. A large portion of the "
    "dictionary entries originate from ICOT Free Software. The following conditions for ICOT "
    "Free Software applies to the current dictionary as well. Each User may also freely "
    "distribute the Program, whether in its original form or modified, to any third party or "
    "parties, PROVIDED that the provisions of Section 3 (NO WARRANTY) will ALWAYS appear on, "
    "or be attached to, the Program, which is distributed substantially in the same form as "
    "set out herein and that such intended distribution, if actually made, will neither "
    "violate or otherwise contravene any of the laws and regulations of the countries having "
    "jurisdiction over the User or the intended distribution itself. NO WARRANTY: The program "
    "was produced on an experimental basis in the course of the research and development "
    "conducted during the project and is provided to users as so produced on an experimental "
    "basis. Accordingly, the program is provided without any warranty whatsoever, whether "
    "express, implied, statutory or otherwise. The term warranty used herein includes, but is "
    "not limited to, any warranty of the quality, performance, merchantability and fitness for "
    "a particular purpose of the program and the nonexistence of any infringement or violation "
    "of any right of any third party. Each user of the program will agree and understand, and "
    "be deemed to have agreed and understood, that there is no warranty whatsoever for the "
    "program and, accordingly, the entire risk arising from or associated with the use of the "
    "program is borne by the user. Therefore, neither ICOT, the copyright holder, or any other "
    "organization that participated in or was otherwise related to the development of the "
    "program and their respective officials, directors, officers and other employees shall be "
    "held liable for any and all damages, including, without limitation, general, special, "
    "incidental and consequential damages, arising out of or otherwise in connection with the "
    "use or inability to use the program or any product, material or result produced or "
    "otherwise obtained by using the program, regardless of whether they have been advised of, "
    "or otherwise had knowledge of, the possibility of such damages at any time during the "
    "project or thereafter. Each user will be deemed to have agreed to the foregoing by his or "
    "her use of the program."
)


def _as_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text)


def ipadic_readings(folder: Path, kanji: set[str]) -> dict[str, set[str]]:
    """The readings IPADIC's words of one kanji give each of ``kanji``: the word's reading when
    it is the kanji alone, or a verb's or an adjective's dictionary form of the kanji and one to
    three kana that end its reading."""
    out: dict[str, set[str]] = {}
    for name in _IPADIC_FILES:
        text = (folder / name).read_bytes().decode("euc_jp", errors="replace")
        for row in csv.reader(io.StringIO(text)):
            match = _ONE_KANJI.fullmatch(row[0])
            reading = _as_hiragana(row[11]) if len(row) > 11 else ""
            if match is None or match.group(1) not in kanji or not _HIRAGANA.fullmatch(reading):
                continue
            kana = match.group(2)
            if row[4] in ("動詞", "形容詞"):
                if row[9] != "基本形" or not 1 <= len(kana) <= 3:
                    continue
            elif kana:
                continue
            if reading.endswith(kana) and len(reading) > len(kana):
                out.setdefault(match.group(1), set()).add(reading)
    return out


def main() -> None:
    unihan = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode")
    ipadic = Path(sys.argv[2] if len(sys.argv) > 2 else "/usr/share/mecab/dic/ipadic")
    jis = _fields(unihan / "Unihan_OtherMappings.txt.bz2", {"kJis0"})
    readings = _fields(unihan / "Unihan_Readings.txt.bz2", {"kJapaneseOn", "kJapaneseKun"})
    more = ipadic_readings(ipadic, set(jis))
    table = {}
    for kanji in sorted(jis):
        words = " ".join(readings.get(kanji, {}).values()).split()
        kana = sorted({k for k in map(hiragana, words) if k} | more.get(kanji, set()))
        if kana:
            table[kanji] = " ".join(kana)
    OUT.write_text(
        json.dumps(
            {
                "source": "Unicode Han Database (Unihan) 15.0, kJapaneseOn and kJapaneseKun of "
                "the kanji with a kJis0 code, in hiragana, and the readings of IPADIC's "
                "(mecab-ipadic 2.7.0) words of one kanji (bench/make_kanji_readings.py)",
                "license": "Unicode License v3 (https://www.unicode.org/license.txt); "
                "Copyright © 1991-2022 Unicode, Inc. " + IPADIC_NOTICE,
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
