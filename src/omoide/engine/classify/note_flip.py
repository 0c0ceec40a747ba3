"""A "never" or a dislike a note turns round: the subject now does, has or likes what the old
memory said it never did, could not or would not (pure).

The old memory's clause about its subject says no to something ("has never flown", "can't
stand olives", "doesn't own a kettle", 一度もスキーをしたことがない, 納豆が苦手, 車を持ってない);
the note's clause about the same subject names that thing again, with no negation, as now, as
a first time or as a change of heart ("orders olives every time now", "first flight ever",
"has come round to olives", 初めてスキーに行った, 最近は納豆にハマってる, 免許を取った). The
thing must be named in both (a word of the old clause's object). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.another_kind import (
    en_compounds,
    ja_head,
    ja_other_of_kind,
    other_of_kind,
)
from omoide.engine.classify.note_claim import (
    Claim,
    en_owned,
    en_units,
    ja_someone_acts,
    ja_units,
)
from omoide.engine.lang import word_set

__all__ = ["flip_claims", "flipped"]

_EN_NEVER = re.compile(
    r"^(?:still )?(?:has never|have never|had never|never|can ?not stand|can't stand|cannot"
    r"|can ?not|can't|hates?|does not|doesn't|do not|don't|won't touch|will not touch"
    r"|refuses to|is not into|isn't into|dislikes?|has not|hasn't)\b(?P<what>.+)"
)
_EN_TURNED = re.compile(
    r"\b(?:now|these days|nowadays|first|finally|come round to|came round to|got into"
    r"|hooked on|obsessed with|converted|started|took up|has taken up|signed up|bought"
    r"|passed|learned|learnt|loves?|new favourite|flew|flown|swam)\b"
)
_EN_NEGATED = re.compile(
    r"\b(?:not|never|no|nothing|none|won't|can't|cannot|hates?|still|if|would|might|will"
    r"|wants?|hopes?|going to|gonna|planning|thinking)\b|n't\b|\?"
)
_EN_STOP = (
    word_set(
        "stand touch own really at all ever even single one life anyone anything something way "
        "bit lot much funny funnily enough thing things taste been learned learn able get got "
        "go going idea sure new first time"
    )
    | lex.EN_TIME_WORDS
)


# Words of one doing, said one way: a flight ("never once been on a plane" → "flew to Toronto"),
# swimming ("can't swim" → "swam two lengths"), a phone ("no smartphone" → "got a mobile").
_EN_SAME = {
    "plane": "fly",
    "aeroplane": "fly",
    "airplane": "fly",
    "flight": "fly",
    "flew": "fly",
    "flown": "fly",
    "flying": "fly",
    "swam": "swim",
    "swimming": "swim",
    "length": "swim",
    "lengths": "swim",
    "smartphone": "phone",
    "mobile": "phone",
    "iphone": "phone",
}


def _en_units(text: str, subject: str) -> frozenset[str]:
    words = re.sub(r"[a-z]+", lambda m: _EN_SAME.get(m.group(), m.group()), text)
    return en_units(words, subject, _EN_STOP, shortest=2)


def _en_pairs(text: str, subject: str) -> frozenset[str]:
    """The "modifier head" pairs of a clause (``another_kind.en_compounds``), kept in a flip
    claim's ``span``."""
    return en_compounds(text, lambda word: _en_units(word, subject))


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        for clause in re.split(r", | and | but |; | - | because | since | though ", rest):
            clause = clause.strip()
            if old:
                m = _EN_NEVER.match(clause)
                if m:
                    out.append(
                        Claim(
                            subject,
                            "flip",
                            "",
                            _en_units(m.group("what"), subject),
                            "never",
                            _en_pairs(m.group("what"), subject),
                        )
                    )
            elif (
                _EN_TURNED.search(clause)
                and not _EN_NEGATED.search(clause)
                and not re.search(lex.STOPPED["en"], clause)
            ):  # an end turns no no round
                out.append(
                    Claim(
                        subject,
                        "flip",
                        "",
                        _en_units(clause, subject),
                        "turned",
                        _en_pairs(clause, subject),
                    )
                )
    return out


# --- Japanese ------------------------------------------------------------------------------

# A no said of a thing (納豆が苦手, 一度も海外に行ったことがない, 免許を持ってない), not a
# condition (ないと, なければ).
_JA_NEVER = re.compile(
    r"苦手|嫌い|無理|(?:ことが|事が)ない"
    r"|(?:持って|使って|やって|飲めて)(?:い)?な"
    r"|(?:飲め|食べ|使わ|飲ま|乗れ|泳げ|弾け|読ま|行か|持た|話せ|書け|読め"
    r"|歩け|走れ)な"
)
# A can't said by the verb itself (泳げない, 話せない): the ability is the thing.
_JA_CANNOT = re.compile(r"(?P<stem>飲め|乗れ|泳げ|弾け|話せ|書け|読め|歩け|走れ)な")
_JA_NOT_NEVER = re.compile(r"ないと|なければ|なきゃ|じゃない")
_JA_TURNED = re.compile(
    r"初めて|はじめて|ついに|最近|今は|いまは|ようになっ|好きになっ"
    r"|大好き|ハマ|はまっ|デビュー|取った|買っ"
)
_JA_NEGATED = re.compile(
    r"ない|なく|なかっ|ず[にで、。]|ません|たい|予定|つもり|かも|なら"
    r"|たら(?!しい)"
)
# The thing a no is said of, whole with its kana (甘いものが苦手, 犬が大の苦手, 数学がめちゃくちゃ
# 嫌い): the noun right before the cue's が / は / も, past any degree word.
_JA_THING = re.compile(
    r"(?P<thing>[^、。はがをにでと]{1,12}?)[がはもを](?:大の|超|めっちゃ"
    r"|めちゃくちゃ|すごく|とても|本当に|ほんとに|かなり)?$"
)
# A liking or an ease said now of a thing (犬好きになって, 甘いものが大好きになった, 数学が一番
# 好きな教科になった, 高いところも平気になった).
_JA_LIKED = re.compile(
    r"好きになっ|大好き|一番好き|好物|平気になっ|ハマっ|はまっ|夢中"
    r"|[ぁ-ん]るようになっ|を取っ|を買っ|デビュー|に変え|に替え|を持っ(?!てな|てい?な)"
)
_JA_STOP = frozenset(
    {"一度", "全然", "絶対", "最近", "今は", "初め", "自分", "毎朝", "毎日", "一滴"}
)


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if subject is None:
            continue
        for clause in body.split("、"):
            if not old and ja_someone_acts(clause):
                continue  # 弟が免許を取った: another's doing
            if old:
                m = _JA_NEVER.search(clause)
                if m and not _JA_NOT_NEVER.search(clause):
                    thing = _JA_THING.search(clause[: m.start()])
                    out.append(
                        Claim(
                            subject,
                            "flip",
                            "",
                            ja_units(clause[: m.start()], _JA_STOP),
                            "never",
                            frozenset({thing.group("thing")} if thing else ()),
                        )
                    )
                    can = _JA_CANNOT.search(clause)
                    # the thing with its modifier (車の免許); its head is what a turn names
                    said = {thing.group("thing")} if thing else set()
                    said |= {can.group("stem")} if can else set()
                    if said - {""}:
                        out.append(Claim(subject, "flip", "whole", frozenset(said - {""}), "never"))
            elif (
                _JA_TURNED.search(clause)
                and not _JA_NEGATED.search(clause)
                and not re.search(lex.STOPPED["ja"], clause)
            ):
                out.append(
                    Claim(
                        subject,
                        "flip",
                        "",
                        ja_units(clause, _JA_STOP),
                        "turned",
                        frozenset({clause}),
                    )
                )
            if not old and _JA_LIKED.search(clause) and not _JA_NEGATED.search(clause):
                out.append(Claim(subject, "flip", "whole", frozenset({clause}), "turned"))
    return out


# --- the decision --------------------------------------------------------------------------


def flip_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """What the old memory says no to (``old``), or what a note says is now done or liked."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def flipped(was: Claim, now: Claim) -> set[str]:
    """The words of the old no that the note's clause now says yes to (empty when none)."""
    if (
        was.shape != "never"
        or now.shape != "turned"
        or was.subject != now.subject
        or was.frame != now.frame
    ):
        return set()
    if was.frame == "whole":
        return {
            ja_head(t)[1]
            for t in was.value
            for clause in now.value
            if _ja_named(ja_head(t)[1], clause) and not ja_other_of_kind(*ja_head(t), clause)
        }
    shared = set(was.value & now.value)
    if shared and other_of_kind(shared, was.span, now.span, was.value, now.value):
        return set()  # one thing said no to, another of its kind said yes to
    return shared


def _ja_named(thing: str, clause: str) -> bool:
    """Whether a liking clause names the old no's thing whole: a single kanji (犬) only as a
    word of its own before a particle or 好き (犬好き, 犬が), not inside another (犬小屋,
    自転車)."""
    at = clause.find(thing)
    if at < 0 or "が" in clause[:at]:
        return False  # not named, or named after another subject (弟が免許を取った)
    if len(thing) > 1:
        return True
    before = clause[at - 1 : at] if at else ""  # 車 of 自転車 is another word
    return not re.fullmatch(r"[\u3400-\u9fff\u30a0-\u30ffー]", before) and clause[
        at + 1 : at + 2
    ] in ("が", "は", "も", "好", "を")
