"""Dedup's notation across a Japanese pair: a common word written in kanji in one text and in
katakana or hiragana in the other (林檎 / りんご, 漫画 / マンガ: sixteenth round), and a
katakana word with and without a long-vowel mark (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: the two texts of a
near-copy differ where one writes a word in kanji and the other in katakana, as Japanese often
writes animals, plants, foods and everyday things (眼鏡 / メガネ, 珈琲 / コーヒー, 松 / マツ,
牡蠣 / カキ), or one writes a loanword's final long vowel and the other drops it (コンピュータ /
コンピューター, プリンタ / プリンター). Why: the server has no kanji reader, so read apart the
first looked like a word swapped for one of another script (the veto keeps those, 緑茶 /
コーヒー), and the second like a changed katakana word. Outcome: ``second``'s katakana word
written as ``first`` writes it, where ``first`` holds the kanji of that word (a general table
of words conventionally written either way, read only across the pair: a kanji never becomes
katakana unless the other text writes that katakana; since the twenty-sixth round also
everyday verbs by stem, 作って / つくって, and nouns and adverbs, 掃除 / そうじ, 主に / おもに;
since the twenty-ninth, a longer hand-written list of everyday words, verbs and adjectives
that style guides leave in kana as often as not, 一緒 / いっしょ, 出来る / できる, 忙しい /
いそがしい) or
the same katakana word but for ー.
Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["katakana_spelled", "long_vowels"]

# Common words written in kanji or, as often, in katakana (animals, fish, plants, foods and
# everyday things), with the katakana spelling.
_KANJI_KATAKANA = {
    "眼鏡": "メガネ",
    "珈琲": "コーヒー",
    "煙草": "タバコ",
    "林檎": "リンゴ",
    "葡萄": "ブドウ",
    "蜜柑": "ミカン",
    "苺": "イチゴ",
    "檸檬": "レモン",
    "椅子": "イス",
    "鞄": "カバン",
    "硝子": "ガラス",
    "麦酒": "ビール",
    "猫": "ネコ",
    "犬": "イヌ",
    "兎": "ウサギ",
    "狸": "タヌキ",
    "狐": "キツネ",
    "熊": "クマ",
    "鹿": "シカ",
    "猿": "サル",
    "鼠": "ネズミ",
    "蛙": "カエル",
    "烏": "カラス",
    "鶏": "ニワトリ",
    "亀": "カメ",
    "蛇": "ヘビ",
    "蜂": "ハチ",
    "蝶": "チョウ",
    "蜘蛛": "クモ",
    "鮭": "サケ",
    "鯵": "アジ",
    "鯖": "サバ",
    "鰯": "イワシ",
    "鮪": "マグロ",
    "鰹": "カツオ",
    "牡蠣": "カキ",
    "海老": "エビ",
    "蟹": "カニ",
    "烏賊": "イカ",
    "蛸": "タコ",
    "鰻": "ウナギ",
    "松": "マツ",
    "杉": "スギ",
    "檜": "ヒノキ",
    "桜": "サクラ",
    "梅": "ウメ",
    "楢": "ナラ",
    "樫": "カシ",
    "欅": "ケヤキ",
    "竹": "タケ",
    "薔薇": "バラ",
    "百合": "ユリ",
    "菊": "キク",
    "人参": "ニンジン",
    "大根": "ダイコン",
    "牛蒡": "ゴボウ",
    "胡瓜": "キュウリ",
    "茄子": "ナス",
    "南瓜": "カボチャ",
    "玉葱": "タマネギ",
    "生姜": "ショウガ",
    "大蒜": "ニンニク",
    "胡麻": "ゴマ",
    "蕎麦": "ソバ",
    "饂飩": "ウドン",
    "海苔": "ノリ",
    "昆布": "コンブ",
    "葱": "ネギ",
    "柿": "カキ",
    "桃": "モモ",
    "梨": "ナシ",
    "栗": "クリ",
    "西瓜": "スイカ",
    "豚": "ブタ",
    "羊": "ヒツジ",
    "山羊": "ヤギ",
    "鋏": "ハサミ",
    "鍵": "カギ",
    "箒": "ホウキ",
    "歯磨き": "ハミガキ",
    "埃": "ホコリ",
    "痣": "アザ",
    "漫画": "マンガ",
    "釦": "ボタン",
    "燐寸": "マッチ",
    "洋燈": "ランプ",
    "合羽": "カッパ",
    "天麩羅": "テンプラ",
    "雲丹": "ウニ",
    "秋刀魚": "サンマ",
    "鰤": "ブリ",
    "鱈": "タラ",
    "河豚": "フグ",
    "胡桃": "クルミ",
    "落花生": "ラッカセイ",
    "薄荷": "ハッカ",
}
# Common words written in kanji or, as often, in hiragana (foods, sweets, household things,
# adjectives and adverbs of everyday speech), with the hiragana spelling. Single kanji whose
# hiragana is also a common word or ending (梨 / なし, 箸 / はし) are left out.
_KANJI_HIRAGANA = {
    "林檎": "りんご",
    "蜜柑": "みかん",
    "葡萄": "ぶどう",
    "寿司": "すし",
    "蕎麦": "そば",
    "饂飩": "うどん",
    "風呂": "ふろ",
    "一番": "いちばん",
    "布巾": "ふきん",
    "算盤": "そろばん",
    "羊羹": "ようかん",
    "餡子": "あんこ",
    "煎餅": "せんべい",
    "団子": "だんご",
    "饅頭": "まんじゅう",
    "ご飯": "ごはん",
    "御飯": "ごはん",
    "眼鏡": "めがね",
    "煙草": "たばこ",
    "豆腐": "とうふ",
    "味噌": "みそ",
    "醤油": "しょうゆ",
    "納豆": "なっとう",
    "沢庵": "たくあん",
    "梅干し": "うめぼし",
    "漬物": "つけもの",
    "天麩羅": "てんぷら",
    "天ぷら": "てんぷら",
    "鰻": "うなぎ",
    "海苔": "のり",
    "昆布": "こんぶ",
    "胡麻": "ごま",
    "生姜": "しょうが",
    "布団": "ふとん",
    "蒲団": "ふとん",
    "炬燵": "こたつ",
    "箪笥": "たんす",
    "絨毯": "じゅうたん",
    "薬缶": "やかん",
    "急須": "きゅうす",
    "玩具": "おもちゃ",
    "雀": "すずめ",
    "燕": "つばめ",
    "鶯": "うぐいす",
    "蛍": "ほたる",
    "喘息": "ぜんそく",
    "鼾": "いびき",
    "美味しい": "おいしい",
    "可愛い": "かわいい",
    "綺麗": "きれい",
    "素敵": "すてき",
    "面白い": "おもしろい",
    "嬉しい": "うれしい",
    "何時も": "いつも",
    "既に": "すでに",
    "殆ど": "ほとんど",
    "勿論": "もちろん",
    "丁度": "ちょうど",
    "頑張": "がんば",
    "煩い": "うるさい",
    "苺": "いちご",
    "蜂蜜": "はちみつ",
    "胡瓜": "きゅうり",
    "茄子": "なす",
    "南瓜": "かぼちゃ",
    "牛蒡": "ごぼう",
    "人参": "にんじん",
    "大根": "だいこん",
    "玉葱": "たまねぎ",
    "山葵": "わさび",
    "油揚げ": "あぶらあげ",
    "厚揚げ": "あつあげ",
    "蒟蒻": "こんにゃく",
    "胡椒": "こしょう",
    "辣韮": "らっきょう",
    "椎茸": "しいたけ",
    # (twenty-ninth round) everyday words the style guides write in kana as often as not
    "沢山": "たくさん",
    "色々": "いろいろ",
    "様々": "さまざま",
    "一緒": "いっしょ",
    "友達": "友だち",
    "大人": "おとな",
    "今日": "きょう",
    "明日": "あした",
    "昨日": "きのう",
    "喧嘩": "けんか",
    "挨拶": "あいさつ",
    "贅沢": "ぜいたく",
    "我慢": "がまん",
    "面倒": "めんどう",
    "丁寧": "ていねい",
    "大丈夫": "だいじょうぶ",
    "一杯": "いっぱい",
    "是非": "ぜひ",
    "恐らく": "おそらく",
    "例えば": "たとえば",
    "何故": "なぜ",
    "全く": "まったく",
    "更に": "さらに",
    "流石": "さすが",
    "暫く": "しばらく",
    "下さい": "ください",
    "欲しい": "ほしい",
    "素晴らしい": "すばらしい",
    "兎に角": "とにかく",
    "猫": "ねこ",
    "犬": "いぬ",
    "兎": "うさぎ",
    "亀": "かめ",
    "熊": "くま",
    "狸": "たぬき",
    # (thirty-first round) an adverb of the same kind
    "必ず": "かならず",
}
# (twenty-sixth round) Everyday verbs whose kanji is as often left in hiragana (作る / つくる,
# 飲んで / のんで, 手伝って / てつだって), by stem: the kanji stem, its hiragana, and the kana a
# form of the verb puts after the stem (so 作家 and 飲料 are not read).
_GODAN_M, _GODAN_R, _GODAN_K = "まみむめもん", "らりるれろっ", "かきくけこい"
_GODAN_T, _GODAN_U, _GODAN_B = "たちつてとっ", "わいうえおっ", "ばびぶべぼん"
_ICHIDAN = "るたてなまれよずさ"
_GODAN_S, _GODAN_G = "さしすせそ", "がぎぐげごい"
# an adjective's stem before its endings (忙しい, 忙しく, 忙しかった, 忙しさ, 忙しそう)
_ADJECTIVE = "いくかけさそ"
_NA_ADJECTIVE = "なにだでさ"
_VERBS = (
    ("作", "つく", _GODAN_R),
    ("飲", "の", _GODAN_M),
    ("持", "も", _GODAN_T),
    ("磨", "みが", _GODAN_K),
    ("手伝", "てつだ", _GODAN_U),
    ("焚", "た", _GODAN_K),
    ("貰", "もら", _GODAN_U),
    ("頂", "いただ", _GODAN_K),
    ("分か", "わか", _GODAN_R),
    ("遊", "あそ", _GODAN_B),
    ("休", "やす", _GODAN_M),
    ("頼", "たの", _GODAN_M),
    ("食べ", "たべ", _ICHIDAN),
    ("寝", "ね", _ICHIDAN),
    ("纏め", "まとめ", _ICHIDAN),
    ("揃え", "そろえ", _ICHIDAN),
    ("片付け", "かたづけ", _ICHIDAN),
    ("掛け", "かけ", _ICHIDAN),
    # (twenty-ninth round) more everyday verbs and adjectives of the same kind
    ("出来", "でき", _ICHIDAN),
    ("笑", "わら", _GODAN_U),
    ("喜", "よろこ", _GODAN_B),
    ("誘", "さそ", _GODAN_U),
    ("断", "ことわ", _GODAN_R),
    ("覚え", "おぼえ", _ICHIDAN),
    ("忘れ", "わすれ", _ICHIDAN),
    ("探", "さが", _GODAN_S),
    ("洗", "あら", _GODAN_U),
    ("茹で", "ゆで", _ICHIDAN),
    ("混ぜ", "まぜ", _ICHIDAN),
    ("疲れ", "つかれ", _ICHIDAN),
    ("憧れ", "あこがれ", _ICHIDAN),
    ("拘", "こだわ", _GODAN_R),
    ("寛", "くつろ", _GODAN_G),
    ("嗜", "たしな", _GODAN_M),
    ("叱", "しか", _GODAN_R),
    ("怒", "おこ", _GODAN_R),
    ("仕舞", "しま", _GODAN_U),
    ("眠", "ねむ", _ADJECTIVE + _GODAN_R),
    ("忙し", "いそがし", _ADJECTIVE),
    ("楽し", "たのし", _ADJECTIVE + "み"),
    ("悲し", "かなし", _ADJECTIVE + "み"),
    ("寂し", "さびし", _ADJECTIVE),
    ("優し", "やさし", _ADJECTIVE),
    ("易し", "やさし", _ADJECTIVE),
    ("恥ずかし", "はずかし", _ADJECTIVE),
    ("懐かし", "なつかし", _ADJECTIVE),
    ("羨まし", "うらやまし", _ADJECTIVE),
    ("美し", "うつくし", _ADJECTIVE),
    ("詳し", "くわし", _ADJECTIVE),
    ("凄", "すご", _ADJECTIVE),
    ("酷", "ひど", _ADJECTIVE),
    ("怖", "こわ", _ADJECTIVE + "が"),
    ("辛", "つら", _ADJECTIVE),
    ("汚", "きたな", _ADJECTIVE),
    ("危", "あぶな", _ADJECTIVE),
    ("暖か", "あたたか", _ADJECTIVE),
    ("温か", "あたたか", _ADJECTIVE),
    ("賑やか", "にぎやか", _NA_ADJECTIVE),
    ("穏やか", "おだやか", _NA_ADJECTIVE),
)
# Everyday nouns and adverbs written in kanji or, as often, in hiragana (掃除 / そうじ, 主に /
# おもに, 時々 / ときどき), a lone kanji only where no other kanji stands beside it (薬 /
# くすり, not 点鼻薬).
_LONE = r"(?<![\u4e00-\u9fff]){}()(?![\u4e00-\u9fff])"
_WORDS = (
    ("掃除", "そうじ"),
    ("手袋", "てぶくろ"),
    ("手袋", "手ぶくろ"),
    ("趣味", "しゅみ"),
    ("主に", "おもに"),
    ("時々", "ときどき"),
    ("難し", "むずかし"),
    ("全部", "ぜんぶ"),
    ("洗濯", "せんたく"),
    ("荒れ", "あれ"),
    ("凝り", "こり"),
    ("神輿", "みこし"),
    ("薬", "くすり"),
    ("娘", "むすめ"),
    ("鍋", "なべ"),
)
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    *((re.compile(f"{kanji}(?=([{ends}]))"), kana) for kanji, kana, ends in _VERBS),
    *(
        (re.compile(_LONE.format(kanji) if len(kanji) == 1 else kanji + "()"), kana)
        for kanji, kana in _WORDS
    ),
    # 時 as the formal noun after a clause or の (寝る時は / 寝るときは; not 7時)
    (re.compile(r"(?<=[のたるい])時()(?=[はにのも、])"), "とき"),
)
_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]+")


def katakana_spelled(first: str, second: str) -> str:
    """``first`` with each kanji word of the tables written in katakana or hiragana where
    ``second`` writes that kana and ``first`` does not (so the two meet in kana)."""
    for table in (_KANJI_KATAKANA, _KANJI_HIRAGANA):
        for kanji, kana in table.items():
            if kanji in first and kana in second and kana not in first:
                first = first.replace(kanji, kana)
    for pattern, kana in _FORMS:
        # a form is written in kana where ``second`` writes that form (stem and ending) in kana
        first = pattern.sub(lambda m, k=kana: k if k + m.group(1) in second else m.group(), first)
    return first


def long_vowels(first: str, second: str) -> str:
    """``second`` with each katakana word written as ``first`` writes it where the two differ
    only in long-vowel marks (コンピュータ / コンピューター)."""
    words = {w.replace("ー", ""): w for w in _KATAKANA_RUN.findall(first) if len(w) >= 3}

    def one(match: re.Match[str]) -> str:
        word = match.group()
        return words.get(word.replace("ー", ""), word) if len(word) >= 3 else word

    return _KATAKANA_RUN.sub(one, second)
