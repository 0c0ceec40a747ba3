"""A diet or an abstinence a note turns round: the subject now eats or drinks what the old
memory said it keeps off (pure).

The old memory says its subject is vegan, vegetarian or teetotal, or does not eat meat or
drink alcohol or coffee ("is teetotal", "has been vegan since 2004", "doesn't drink coffee", お酒が
飲めない, 肉は食べない); the note's clause about the same subject has it eating or drinking a
thing of that kind, with no negation ("has a pint of cider most Fridays", "eats fish again",
"is on four espressos a day", 毎晩ビールを一缶あけてる, 焼き肉屋に通ってる). The kinds are
plain food words (meat, fish, dairy, alcohol, coffee). Cooking, selling or serving it is not
eating it ("fries sausages all day at work"). No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.engine.classify.note_claim import Claim, en_owned

__all__ = ["diet_claims", "diet_turned"]

_EN_KINDS = {
    "meat": r"meat|bacon|beef|chicken|steak|pork|lamb|ham|sausages?|burgers?|mince|turkey",
    "fish": r"fish|salmon|tuna|prawns?|sushi|cod|mackerel|sardines?",
    "dairy": r"cheese|milk|butter|yog(?:h)?urt|cream|ice cream|lattes?|cheesy",
    "alcohol": r"pints?|beers?|lager|ales?|cider|wine|prosecco|gin|whisky|whiskey|vodka"
    r"|rum|cocktails?|(?<!energy )(?<!soft )(?<!fizzy )drink|booze"
    r"|glass of (?:red|white|wine)",
    "coffee": r"coffees?|flat whites?|lattes?|espressos?|cappuccinos?|americanos?",
}
_EN_DIET = {
    "vegan": ("meat", "fish", "dairy"),
    "vegetarian": ("meat", "fish"),
    "veggie": ("meat", "fish"),
    "pescatarian": ("meat",),
    "teetotal": ("alcohol",),
    "tee-total": ("alcohol",),
    "lactose intolerant": ("dairy",),
}
_EN_KEEPS_OFF = re.compile(
    r"^(?:is |has been |'s )?(?:a |an )?(?:strict |fully |totally |completely |lifelong )?"
    r"(?P<diet>vegan|vegetarian|veggie|pescatarian|teetotal|tee-total|lactose intolerant)\b"
    r"|^(?:does not|doesn't|never|can't|cannot|can not|won't) (?P<verb>eat|drink|have|touch)"
    r"(?: any)? (?P<what>[a-z ]+)"
    r"|^(?:has not|hasn't) had a (?P<drink>drink)\b"
    r"|^(?:gave up|has given up|stopped eating|stopped drinking) (?P<gave>[a-z]+)"
)
# A keeping off narrowed to a time, a place or a way ("after 2 pm", "on weekdays", "black"):
# not a diet a note turns round.
_EN_NARROW = re.compile(
    r"\b(?:after|before|during|weekdays?|at night|in the (?:evening|morning)"
    r"|at work|at home|when|black|raw|red|decaf|instant|cold)\b"
)
_EN_EATS = re.compile(
    r"\b(?:eats?|eating|ate|drinks|drinking|drank|has|had|having|is on|treat|tucks? into"
    r"|favourite|loves|started (?:eating|drinking))\b"
)
_EN_NOT = re.compile(
    r"\b(?:stopped|stop|gave up|given up|quit|cut out|off|ago|as a (?:kid|child)"
    r"|not|no|never|nothing|cooks?|cooking|sells?|selling|serves?|serving"
    r"|makes?|making|buys? for|for the (?:dog|cat|kids|children|family)|if"
    r"|would|might|will|wants?|tries to|trying|free|alternative|oat|soy"
    r"|vegan|veggie|plant)\b|n't\b|\?"
)


# A food word that names a trade or a place, not what one eats ("a cheese shop", "a beef
# cattle auction").
_EN_TRADE = (
    r"(?! (?:shop|stall|farm|farmer|herd|suckler|van|business|company|factory"
    r"|restaurant|bar|pub|cafe|café|counter|plant|station|industry|market|truck"
    r"|machine|maker|grinder|roaster\w*|round|festival|club)\b)"
)


def _en_kinds(text: str) -> set[str]:
    return {
        kind for kind, words in _EN_KINDS.items() if re.search(rf"\b(?:{words})\b{_EN_TRADE}", text)
    }


def _en_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, rest in en_owned(sentences):
        for clause in re.split(r", | and | but |; | - | so | since | though |\. ", rest):
            clause = clause.strip()
            if old:
                m = _EN_KEEPS_OFF.match(clause)
                if m is None:
                    continue
                what = (m.group("what") or m.group("gave") or "").split()
                if _EN_NARROW.search(clause):
                    continue  # kept off at some times or places only: narrowed, not a diet
                if m.group("diet"):
                    kinds = set(_EN_DIET[m.group("diet")])
                elif m.group("drink") or (
                    m.group("verb") == "drink"
                    and (not what or what[0] in ("at", "alcohol", "booze"))
                ):
                    kinds = {"alcohol"}  # "she doesn't drink at all"
                elif what and what[0] in _EN_KINDS:
                    kinds = {what[0]}  # the kind itself: "doesn't eat meat"
                else:
                    kinds = {f"w:{what[0]}"} if what and _en_kinds(what[0]) else set()
                if kinds:
                    out.append(Claim(subject, "diet", "", frozenset(kinds), "keeps off"))
            elif _EN_EATS.search(clause) and not _EN_NOT.search(clause):
                kinds = _en_kinds(clause)
                if kinds:
                    words = {f"w:{w}" for w in re.findall(r"[a-z]+", clause)}
                    out.append(Claim(subject, "diet", "", frozenset(kinds | words), "takes"))
    return out


# --- Japanese ------------------------------------------------------------------------------

_JA_KINDS = {
    "meat": r"肉|焼き?肉|すき焼き|しゃぶしゃぶ|からあげ|唐揚げ|ステーキ|ハンバーグ|とんかつ"
    r"|ベーコン|ハム|ソーセージ|牛丼|焼き鳥|焼鳥",
    "fish": r"魚|刺身|寿司|すし|鮭|サバ|マグロ",
    "alcohol": r"お酒|(?<!甘)酒|ビール|焼酎|日本酒|ワイン|ハイボール|晩酌|チューハイ|サワー"
    r"|ウイスキー",
    "coffee": r"コーヒー|カフェラテ|エスプレッソ",
}
_JA_DIET = {
    "ベジタリアン": ("meat", "fish"),
    "ヴィーガン": ("meat", "fish"),
    "ビーガン": ("meat", "fish"),
    "菜食": ("meat", "fish"),
}
_JA_KEEPS_OFF = re.compile(
    r"(?P<what>[^、。]{1,8}?)(?:が|は|を)(?:一滴も|一切|全然|全く|まったく|絶対)?"
    r"(?:飲めな|飲まな|食べな|食べられな|口にしな)|(?P<diet>ベジタリアン|ヴィーガン|ビーガン|菜食)"
)
# The kind itself, said whole (お酒, 肉): a narrower thing (生魚, ブラックコーヒー) is kept
# off alone.
_JA_HEADS = {"alcohol": "酒", "meat": "肉", "fish": "魚", "coffee": "コーヒー"}
_JA_NARROW = re.compile(r"平日|週末|夜は|朝は|昼は|仕事中|外では|家では|以外")
_JA_TAKES = re.compile(r"飲ん|飲む|飲み|食べ|通って|大好物|好物|楽しみ|あけて|一杯|一合|日課")
_JA_NOT = re.compile(
    r"やめ|控え|断っ|ない|なく|ず[にで、。]|ません|たい|予定|つもり|かも|なら"
    r"|たら(?!しい)|作っ|売っ|出して|焼いて|代わり|ノンアル"
)


def _ja_kinds(text: str) -> set[str]:
    return {kind for kind, words in _JA_KINDS.items() if re.search(words, text)}


def _ja_claims(sentences: Sequence[tuple[str | None, str]], old: bool) -> list[Claim]:
    out = []
    for subject, body in sentences:
        if subject is None:
            continue
        for clause in body.split("、"):
            if old:
                m = _JA_KEEPS_OFF.search(clause)
                if m is None:
                    continue
                what = (m.group("what") or "").removeprefix("お")
                if _JA_NARROW.search(clause):
                    continue
                if m.group("diet"):
                    kinds = set(_JA_DIET[m.group("diet")])
                else:
                    kinds = {kind for kind, head in _JA_HEADS.items() if what == head} or (
                        {f"w:{what}"} if _ja_kinds(what) else set()
                    )
                if kinds:
                    out.append(Claim(subject, "diet", "", frozenset(kinds), "keeps off"))
            elif _JA_TAKES.search(clause) and not _JA_NOT.search(clause):
                kinds = _ja_kinds(clause)
                if kinds:
                    out.append(
                        Claim(subject, "diet", "", frozenset(kinds), "takes", frozenset({clause}))
                    )
    return out


# --- the decision --------------------------------------------------------------------------


def diet_claims(
    sentences: Sequence[tuple[str | None, str]], lang: str, *, old: bool
) -> list[Claim]:
    """What the old memory's subject keeps off (``old``), or what a note has them take now."""
    return _ja_claims(sentences, old) if lang == "ja" else _en_claims(sentences, old)


def diet_turned(was: Claim, now: Claim) -> set[str]:
    """The kinds the old subject kept off that the note has them eat or drink (else empty)."""
    if was.shape != "keeps off" or now.shape != "takes" or was.subject != now.subject:
        return set()
    named = {v for v in was.value if v.startswith("w:") and any(v[2:] in c for c in now.span)}
    return set(was.value & now.value) | named
