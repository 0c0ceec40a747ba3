"""General vocabulary for the offline contradiction classifier (pure data).

Word lists of everyday English and Japanese: people, negation, verbs of quitting, starting,
moving and switching, preference words, frequency words. They describe the language, not any
labelled pair: nothing here may name a sentence, id or entity from a benchmark set.
Cue patterns are regular-expression sources keyed by language ("en", "ja").
"""

from __future__ import annotations

from omoide.engine.lang import word_set

__all__ = [
    "ADDITIVE",
    "CHANGE",
    "COMPLETED",
    "DOMAINS",
    "ENDED",
    "EN_CAUSAL_CLEFT",
    "EN_CHAIN_PERSONS",
    "EN_GENERIC_VERBS",
    "EN_IRREGULAR",
    "EN_NOT_A_VALUE",
    "EN_NUMBER_WORDS",
    "EN_OCCASION_OR_ADDITION",
    "EN_ORDINALS",
    "EN_ORDINALS_TO_TENTH",
    "EN_PAST_IRREGULAR",
    "EN_PAST_IRREGULAR_MORE",
    "EN_PAST_STATE_VERBS",
    "EN_PERSONS",
    "EN_SWAP_FILLERS",
    "EN_TIME_WORDS",
    "EN_VALUE_BREAKS",
    "EN_VERB_FORM",
    "FAVORITE",
    "FAVORITE_VALUE",
    "JA_CAUSAL_CLEFT",
    "JA_CAUSE",
    "JA_CHAIN_PERSONS",
    "JA_CLEFT",
    "JA_COMPOUND_UNITS",
    "JA_COUNTED_UNITS",
    "JA_DATE_PHRASE",
    "JA_GENERIC_STEMS",
    "JA_IDIOMS_NOT_NEGATION",
    "JA_KANJI_DIGITS",
    "JA_NOW_TOPIC",
    "JA_PERSONS",
    "JA_PETS",
    "JA_REASON_CLAUSE",
    "JA_STOP_VERB",
    "JA_TIME_WORDS",
    "NARROWING",
    "NEGATION",
    "OCCASION",
    "ORIGIN",
    "PAST_FACT",
    "PLAN",
    "PREF_NEG",
    "PREF_POS",
    "PURSUIT",
    "REASON",
    "RESIDENCE_START",
    "RESUMPTION",
    "STATUS_SLOTS",
    "STOPPED",
    "UNIT_SYNONYMS",
    "WEAK_CHANGE",
    "longest_first",
]


def longest_first(text: str) -> tuple[str, ...]:
    """Space-separated words, longest first, so an alternation tries 母親 before 母."""
    return tuple(sorted(text.split(), key=len, reverse=True))


# --- people ------------------------------------------------------------------------------

EN_PERSONS = word_set(
    "mother mom mum father dad parent brother sister sibling son daughter child kid baby wife "
    "husband spouse partner boyfriend girlfriend fiance fiancee grandmother grandma grandfather "
    "grandpa grandparent aunt uncle cousin niece nephew friend neighbor neighbour roommate "
    "flatmate coworker colleague boss manager teacher doctor landlord landlady classmate family "
    "in-laws stepmother stepfather twin mentor coach"
    # Pets have facts of their own: "User's cat" and "User's dog" are different subjects.
    " pet cat kitten dog puppy hamster rabbit bunny bird parrot budgie turtle tortoise horse"
)

_JA_PET_WORDS = "ペット 猫 愛猫 子猫 犬 愛犬 子犬 ハムスター うさぎ ウサギ インコ 金魚 亀 カメ"
JA_PERSONS = longest_first(
    "お父さん お母さん 父親 母親 両親 父 母 兄 姉 弟 妹 兄弟 姉妹 お兄さん お姉さん 息子 娘 子供 "
    "子ども 長男 長女 次男 次女 妻 夫 旦那 嫁 奥さん 彼氏 彼女 恋人 婚約者 祖母 祖父 "
    "おばあちゃん おじいちゃん 叔母 叔父 伯母 伯父 おば おじ いとこ 従兄弟 従姉妹 姪 甥 孫 "
    "友達 友人 親友 隣人 同僚 上司 部下 先輩 後輩 先生 担任 大家 同級生 ルームメイト 家族 "
    "実家 義母 義父 義理の母 義理の父 "
    "同期 仲間 元夫 元妻 元旦那 赤ちゃん ママ パパ 甥っ子 姪っ子 ばあちゃん じいちゃん 恩師 師匠 "
    "相棒 先輩方 店長 社長 部長 課長 " + _JA_PET_WORDS
)
# The animals among them: a pet holds its own facts (犬は十歳だ), but the count of a user's
# pets is the user's fact (猫は三匹になった).
JA_PETS = frozenset(_JA_PET_WORDS.split())

# More words that name a person when they stand in a possessive chain ("Marcus's ex",
# "Dana's stepson", 林さんの元カレ): read by the subject chain only, so the readers of
# EN_PERSONS / JA_PERSONS keep their vocabulary. Hyphenated relations ("ex-wife",
# "mother-in-law") are read by their parts.
EN_CHAIN_PERSONS = word_set(
    "ex stepson stepdaughter stepbrother stepsister stepdad stepmom stepchild grandson "
    "granddaughter grandchild grandkid godmother godfather godson goddaughter housemate "
    "buddy pal bestie sweetheart employer employee supervisor assistant "
    "therapist nanny babysitter tutor student pupil client patient acquaintance peer teammate "
    "bandmate schoolmate workmate mentee apprentice"
)

JA_CHAIN_PERSONS = longest_first(
    "元彼 元カレ 元カノ 元嫁 配偶者 パートナー 主人 同居人 幼なじみ 幼馴染 知人 知り合い "
    "義兄 義姉 義弟 義妹 相方 主治医 担当医 医者 生徒 教え子 患者 ベビーシッター"
)

# --- English morphology -------------------------------------------------------------------

EN_IRREGULAR = {
    **dict.fromkeys(word_set("is are am was were been being 's"), "be"),
    **dict.fromkeys(word_set("has had having"), "have"),
    **dict.fromkeys(word_set("does did done"), "do"),
    **dict.fromkeys(word_set("went gone goes"), "go"),
    **dict.fromkeys(word_set("kids children"), "child"),
    "favourite": "favorite",
    "ran": "run",
    "saw": "see",
    "seen": "see",
    "took": "take",
    "taken": "take",
    "got": "get",
    "gotten": "get",
    "made": "make",
    "bought": "buy",
    "drove": "drive",
    "driven": "drive",
    "grew": "grow",
    "grown": "grow",
    "left": "leave",
    "began": "begin",
    "begun": "begin",
    "taught": "teach",
    "told": "tell",
    "said": "say",
    "thought": "think",
    "felt": "feel",
    "met": "meet",
    "sold": "sell",
    "won": "win",
    "lost": "lose",
    "wrote": "write",
    "ate": "eat",
    "eaten": "eat",
    "drank": "drink",
    "drunk": "drink",
    "came": "come",
    "became": "become",
    "gave": "give",
    "given": "give",
    "kept": "keep",
    "slept": "sleep",
    "spent": "spend",
    "paid": "pay",
    "heard": "hear",
    "held": "hold",
    "found": "find",
    "built": "build",
    "brought": "bring",
    "caught": "catch",
    "fell": "fall",
    "flew": "fly",
    "flown": "fly",
    "forgot": "forget",
    "broke": "break",
    "broken": "break",
    "chose": "choose",
    "swam": "swim",
    "sang": "sing",
    "rode": "ride",
    "wore": "wear",
    "people": "person",
    "men": "man",
    "women": "woman",
    "wives": "wife",
    "lives": "live",
    "mice": "mouse",
    "feet": "foot",
    "quit": "quit",
    "news": "news",
    "bus": "bus",
    "glasses": "glass",
}

EN_PAST_IRREGULAR = word_set(
    "ran saw took got made bought drove grew left began taught told said thought felt met sold "
    "won lost wrote ate drank came became gave kept slept spent paid heard held found built "
    "brought caught fell flew forgot broke chose swam sang rode wore went"
)
# Irregular pasts the list above leaves out, read by the dedup screens (status, notation).
EN_PAST_IRREGULAR_MORE = word_set(
    "sat stood spoke did knew understood sent lent threw hid shot dug hung fought sought struck "
    "bent"
)

EN_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}

EN_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
}
# The ordinals up to "tenth": the English number reader takes them as numbers of their own (a
# higher one only when asked), and dedup spells a digit ordinal up to "10th" out as one of them.
EN_ORDINALS_TO_TENTH = {word: n for word, n in EN_ORDINALS.items() if n <= 10}

# Verbs so common that sharing them says nothing about sharing a topic.
EN_GENERIC_VERBS = word_set(
    "be have do get go make take say tell want like love enjoy plan start stop keep give put come "
    "use try seem become turn let need know think feel"
)

EN_TIME_WORDS = word_set(
    "today yesterday tomorrow week month year day ago last next weekend weekday time times "
    "tonight recent"
)

# Past-tense verbs whose result is a present state ("adopted a cat", "asked Tomoe to …").
EN_PAST_STATE_VERBS = word_set(
    "asked told decided said agreed promised requested started began adopted bought got joined "
    "married moved switched became quit stopped retired graduated raised increased changed "
    "cancelled canceled postponed celebrated turned"
)

# Katakana unit words that begin with another unit word (ミリ, センチ, キロ), with their symbols:
# each is read whole, never as the shorter unit and the rest of the word (200ミリリットル was
# read "200mmリットル", 600キロカロリー 600 km). A katakana noun after the short unit word keeps
# it a unit (8ミリフィルム, 10キロマラソン).
JA_COMPOUND_UNITS = {
    "センチメートル": "cm",
    "ミリメートル": "mm",
    "ミリリットル": "ml",
    "ミリグラム": "mg",
    "ミリシーベルト": "mSv",
    "ミリアンペア": "mA",
    "キロメートル": "km",
    "キログラム": "kg",
    "キロカロリー": "kcal",
    "キロワット": "kW",
    "キロヘルツ": "kHz",
    "キロバイト": "KB",
    "キロリットル": "kl",
    "キロジュール": "kJ",
    "キロボルト": "kV",
}
# The kanji digits and their values (〇 0 to 九 9).
JA_KANJI_DIGITS = {ch: value for value, ch in enumerate("〇一二三四五六七八九")}
# The compound unit words an amount is counted in (``quantity``'s counters, beside their
# symbols): キロメートル and キログラム; キロ starting any other one is no counter.
JA_COUNTED_UNITS = tuple(
    word for word, symbol in JA_COMPOUND_UNITS.items() if symbol in ("km", "kg")
)

UNIT_SYNONYMS = {
    "kid": "child",
    "child": "child",
    "baby": "child",
    "son": "child",
    "daughter": "child",
    "dollar": "$",
    "buck": "$",
    "kilometer": "km",
    "kilometre": "km",
    "キロ": "km",
    **{word: JA_COMPOUND_UNITS[word] for word in JA_COUNTED_UNITS},
    "hr": "hour",
    "min": "minute",
    "minute": "minute",
    "年目": "年",
    "年間": "年",
    "ヶ月": "か月",
    "カ月": "か月",
    "ヵ月": "か月",
    "パーセント": "%",
    "percent": "%",
}

# --- Japanese -----------------------------------------------------------------------------

# Time expressions removed from content: they date a fact, they do not name its topic.
JA_TIME_WORDS = longest_first(
    "先月 先週 今月 今週 来月 来週 今年 去年 昨年 来年 再来年 昨日 今日 明日 最近 今は 今では 今度 "
    "この春 この夏 この秋 この冬 今春 今夏 今秋 今冬 年末年始 年末 年始 以前 現在 当時 "
    "毎日 毎朝 毎晩 毎週 毎月 毎年 平日 週末 特に 全く 主に 中でも 一番 全然 本当に よく"
)

# Kanji verb stems too common to show two memories share a topic (通う, 行く, 持つ …).
JA_GENERIC_STEMS = word_set(
    "通 行 持 使 見 言 思 食 飲 作 出 来 入 取 受 聞 話 書 読 好 大好 得意 苦手"
)

# Idioms that contain ない without negating anything (目がない = "is crazy about").
JA_IDIOMS_NOT_NEGATION = ("目がない", "間違いない", "仕方ない", "しょうがない", "少ない", "危ない")

# --- cues (regular-expression sources, per language) --------------------------------------

NEGATION = {
    "en": r"\bnot\b|\bnever\b|\bno longer\b|\bno more\b|\bnone\b|\bnobody\b|\bnothing\b",
    "ja": r"ない|なかった|ません|ず[、。に]|ずに|ダメ|だめ|無理",
}

# 止め as the verb 止める (止めた, 止めている, タバコは止めにした), not the noun it makes after a
# noun stem: 日焼け止め (sunscreen), 滑り止め, 痛み止め, 咳止め, 酔い止め, 通行止め, 口止め, 足止め.
# Right after a word (kanji, kana: no particle between) 止め is such a noun unless a verb
# ending follows it (喫煙止めた, a dropped を, still ends; 日焼け止めまで / よりも / なしで do
# not: only the endings 止めます, 止めよう, 止めない … count); after a particle (を は も が), at
# the start or after punctuation it is the verb. 取り止め (called off), 打ち止め (closed) and
# 差し止め (suspended) are endings as nouns too. A suru-verb of such a noun (口止めされた, 足止め
# された) is no ending of the subject's own.
_JA_WORD = "\u3400-\u9fff々ぁ-ゖァ-ヺー"
JA_STOP_VERB = (
    r"(?:取り|打ち|差し)止め"
    rf"|(?<![{_JA_WORD}])止め"
    r"|(?<=[をはもが])止め"
    r"|止め(?=[たてずれらろる]|ま[すしせ]|な[いかくけ]|よう|ちゃ|ちま)"
)

# Something that held has ended: quitting, cancelling, breaking up, graduating.
STOPPED = {
    "en": (
        r"\bno longer\b|\bany ?more\b|\bused to\b|\bstop(?:ped|s)?\b|\bquit(?:s|ting)?\b"
        r"|\bg[ai]ve(?:n)? up\b|\bgiving up\b|\bcancel(?:l?ed|s)?\b|\bcalled off\b"
        r"|\bcall(?:s|ing)? off\b|\bbroke up\b|\bsplit up\b|\bdivorced\b"
        r"|\bretired(?= from\b| in\b| last\b| this\b| after\b| early\b| at\b|[.,;]|$)"
        r"|\bresigned\b|\bgraduated\b|\bdropped out\b|\bpostpone[ds]?\b|\bput off\b"
        r"|\bsold (?:her|his|their|the)\b|\bgot rid of\b|\bended\b|\bleft (?:her|his|the)\b"
        r"|\bpassed away\b|\bdied\b|\bno more\b|\bnever again\b|\bmoved out\b"
    ),
    "ja": (
        r"もう.{0,12}(?:ない|ません|なかった)|やめ|辞め|"
        + JA_STOP_VERB
        + r"|取りやめ|取り消|キャンセル"
        r"|別れ|手放|売って|売った|なくなっ|亡くな|死んだ|諦め|見送"
        # a kanji noun of ending, unless it heads a longer compound noun (解消法 is a method,
        # 卒業式 a ceremony, 退職金 a payment); 〜後 (after it) still tells it happened
        r"|(?:中止|延期|離婚|解約|退会|退職|卒業|引退|売却|禁煙|禁酒|断念|解消|退部)"
        r"(?!(?!後)[\u3400-\u9fff々])"
    ),
}

# The old sentence already describes an ended or former state.
ENDED = {
    "en": r"\bformer\b|\bex-|\bused to\b|\bretired\b|\bno longer\b|\bquit\b|\bstopped\b",
    "ja": r"元|かつて|以前は|やめた|辞めた|退職|卒業|引退|禁煙|禁酒",
}

RESUMPTION = {
    "en": r"\bagain\b|\bresumed?\b|\bback to\b|\breturned to\b|\bpicked up .* again\b",
    "ja": r"再開|再び|また.{0,8}始め|復帰|戻っ|戻し|戻る",
}

# A new state has begun (a change verb or a "since <time>" phrase).
CHANGE = {
    "en": (
        r"\bnow\b|\bfrom now on\b|\bswitch(?:ed|es)? to\b|\bchanged? to\b|\bmoved?\b"
        r"|\brelocated\b|\bbec(?:a|o)me\b|\bturned \d|\bgrown to\b|\bgrew to\b|\bcame to\b"
        r"|\bstarted\b|\bstarting (?:this|next|last|in|from)\b|\bbegan\b|\btransferred\b"
        r"|\bpromoted\b|\bgot (?:a|her|his|their) new\b|\bnew job\b|\binstead\b|\bas of\b"
        r"|\braised\b|\bincreased\b|\bwent up\b|\bwent down\b|\bdropped to\b|\bcut\b"
        r"|\breduced\b|\blowered\b|\bdoubled\b|\bgo back to\b|\bgoing back to\b"
        r"|\bswitched\b|\btraded in\b|\breplaced\b|\bgot married\b|\bgot engaged\b"
        r"|\bthese days\b|\bnowadays\b"
    ),
    "ja": (
        r"になった|になって|ようになっ|に変わ|変えた|替えた|乗り換え|買い替え|始めた|始めて"
        r"|始め|(?:月|週|年|日|春|夏|秋|冬|今|度)から|今は|今では|転職|異動|配属|転勤|引っ越"
        r"|移った|移住|上がった|下がった|値上が|値下が|増えた|減った|増やし|減らし|昇進|昇格|入社|就職"
        r"|結婚した"
        r"|婚約した|迎えた"
    ),
}

# Cues that only date the new state ("now", 今は): enough with a changed number or stance,
# too weak on their own to say a different word replaced the old one.
WEAK_CHANGE = {
    "en": r"\bnow\b|\bthese days\b|\bnowadays\b",
    "ja": r"今は|今では",
}

# The new sentence says the person now lives somewhere new.
RESIDENCE_START = {
    "en": (
        r"\bmov(?:ed|es|ing) (?:to|into|back|out|in with|from|abroad|away)\b|\brelocated\b"
        r"|\bgot (?:her|his|their|an?) (?:own )?(?:apartment|place|flat|house|condo)\b"
        r"|\bbought (?:a|her|his|their) (?:own )?(?:house|home|apartment|condo|flat)\b"
    ),
    "ja": r"引っ越|転居|移住|移り住|入居|(?:から|を始め|始めた).{0,4}暮らし|暮らし.{0,6}始め",
}

# "too", "also", "another": a second item next to the first, not a replacement.
ADDITIVE = {
    "en": r"\balso\b|\btoo\b|\bas well\b|\banother\b|\bin addition\b",
    "ja": r"も(?:好き|持って|飼って|ある|いる|大好き|得意|目がない|して|行|や)|にも",
}

# "especially", "mostly": a narrower case of the old statement.
NARROWING = {
    "en": r"\bespecially\b|\bparticularly\b|\bmostly\b|\bmainly\b|\bin particular\b"
    r"|\babove all\b",
    "ja": r"特に|中でも|とりわけ|主に|なかでも",
}

# "favorite X": narrower only when X is what the old memory was about.
FAVORITE = {
    "en": r"\bfavou?rite\b",
    "ja": r"一番|お気に入り|最も",
}

# The old sentence is explicitly about a past occasion (a first car, a race in 2022).
PAST_FACT = {
    "en": r"\bfirst\b|\bused to\b|\bwhen (?:she|he|they|user) was\b|\bas a (?:child|kid)\b",
    "ja": r"初めて|最初の|昔|子供の頃|子どもの頃|学生時代|当時",
}

# A reason or cause given for a fact ("because his ferritin fell to 9", 腎臓が悪いので): a memory
# that explains another usually extends it.
REASON = {
    "en": r"\bbecause\b|\bsince (?!\d|last|then|\w+ \d)|\bdue to\b|\bso that\b|\bfor the sake of\b"
    r"|\bafter (?:her|his|their|the user's) \w+ (?:died|passed|broke|was diagnosed)",
    "ja": r"ので|ため(?:に)?[、,]|から[、,]|せいで|おかげで|きっかけ"
    r"|のは[、,].*(?:から|ため)(?:だ|です)?[。.]?$",
}

# The Japanese backstory of a fact (``backstory``): a reason clause up to its conjunction
# (腎臓が悪いので, 父が倒れたから、, 転勤がきっかけで), the cause words that make a cleft a reason
# (戻ったのは、父が倒れたからだ), the cleft itself, and a time of origin or a duration up to now
# (2016年, 五年前, 去年, 三年になる, 四月から).
JA_REASON_CLAUSE = (
    r"[^、。]*?(?:ので|から、|ため[、に]|せいで|おかげで|がきっかけで|をきっかけに|以来)"
)
JA_CAUSE = r"から|ため|せい|影響|きっかけ"
JA_CLEFT = r"(?:た|だ|る|い)のは、?(.+?)(?:から|ため|せい)?(?:だ|です|である|だった)?。?$"
# A cleft whose focus is a cause (「日勤だけなのは、夜勤を外してもらったからだ」, "the reason
# … is that …", "that is why …"): what stands before it is presupposed to hold, and the
# sentence only tells why (``backstory.reason_presupposed``).
JA_CAUSAL_CLEFT = (
    r"のは、?[^。]*?(?:から|ため|せい|おかげ)(?:だ|です|である|だった|でした)?"
    r"(?:らしい|という|とのこと|そうだ|みたいだ?)?[。.!！]?$"
)
EN_CAUSAL_CLEFT = (
    r"\bthe reason(?: why)?\b.+\b(?:is|was)\b|\b(?:which|that) is why\b"
    r"|\bthat's why\b"
)
_JA_NUMERAL = r"(?:\d+|[一二三四五六七八九十]+)"
JA_DATE_PHRASE = (
    rf"{_JA_NUMERAL}年(?:前|の(?:春|夏|秋|冬)|\d+月)?|去年|昨年|一昨年|先月|先週"
    rf"|{_JA_NUMERAL}(?:年|か月|ヶ月|カ月)(?:になる|が経|経つ|目)"
    rf"|{_JA_NUMERAL}月(?:から|に)|(?:春|夏|秋|冬)から|翌年|来日した|卒業した年"
)
# A time said as a sentence's topic (今は、最近は): the present, not a subject (``note_close_ja``).
JA_NOW_TOPIC = r"(?:今|最近|現在|いま|この頃|近頃)"

# A value swapped in the old frame (``swap``), English: the words left out when two memories
# are aligned (articles, "now", "still" …), the words that end a swapped value (a clause's
# seam), the words no value holds (a verb, an auxiliary, a negation, a conjunction), a word form
# that may be the statement's verb, and the words of another occasion or of an addition.
EN_SWAP_FILLERS = frozenset({"a", "an", "the", "now", "currently", "still", "just", "this", "that"})
EN_VALUE_BREAKS = frozenset(
    {",", ";", "since", "because", "after", "when", "and", "but", "as", "so"}
)
EN_NOT_A_VALUE = (
    r"is|are|am|was|were|be|been|has|have|had|does|do|did|not|never|no|will|can|could"
    r"|would|should|[a-z]+ed|[a-z]+ing|and|or|but|because|since"
)
EN_VERB_FORM = r"is|are|was|were|has|have|had|does|do|did|[a-z]+(?<!')s|[a-z]+ed|:"
EN_OCCASION_OR_ADDITION = (
    r"visited|went|traveled|travelled|tried|bought|ordered|attended|saw|met|watched|ate"
    r"|yesterday|tomorrow|last|next|also|too|another|one more|second|again|plans?|planning"
    r"|will|going to|wants?|hopes?"
)

# How a current fact began ("started Pilates after the twins", 吹奏楽部に入ったのは…,
# …がきっかけで): a memory that tells the origin of another extends it, it does not replace it.
ORIGIN = {
    "en": r"\b(?:joined|started|began|took up|got into|picked up)\b.*"
    r"\b(?:after|when|during|since)\b",
    "ja": r"(?:始めた|入った|通い始めた)のは|きっかけ|以来",
}

PREF_POS = {
    "en": (
        r"\blik(?:e|es|ed|ing)\b|\blov(?:e|es|ed|ing)\b|\benjoy(?:s|ed|ing)?\b|\bfan\b"
        r"|\bfavou?rite\b|\badores?\b|\binto\b(?= \w+(?:ing)?\b)|\bprefers?\b|\bfond of\b"
        r"|\bpassionate\b|\bgood at\b|\bgreat at\b|\bcrazy about\b|\bobsessed\b"
    ),
    "ja": r"好き|好む|目がない|はまっ|ハマっ|得意|夢中|気に入|愛用|ファン|楽し|派だ|派で",
}

PREF_NEG = {
    "en": (
        r"\bdislik\w*|\bhat(?:e|es|ed)\b|\bcan not stand\b|\bcannot stand\b|\bdetests?\b"
        r"|\bafraid\b|\bscared\b|\bterrified\b|\bbad at\b|\bsick of\b|\btired of\b"
        r"|\bnightmares?\b|\bavoids?\b|\bgross\b"
    ),
    "ja": r"嫌い|苦手|ダメ|だめ|無理|嫌|怖い|こわい|まずい",
}

# A change verb only contradicts an old memory about its own kind of thing.
DOMAINS: dict[str, dict[str, str]] = {
    "work": {
        "cue_en": r"\bnew job\b|\bswitched jobs\b|\bchanged jobs\b|\btransferred\b"
        r"|\bpromoted\b|\bnow works\b|\bstarted working\b|\bgot a job\b|\bhired\b"
        r"|\bjoined\b|\bgraduated\b",
        "cue_ja": r"転職|異動|配属|所属になった|昇進|昇格|入社|就職|転勤",
        "topic_en": r"\bwork\w*|\bjob\b|\bcompany\b|\bemploy\w*|\boffice\b|\bstudent\b"
        r"|\bfirm\b|\bstaff\b|\bas an? \w+",
        "topic_ja": r"働|勤め|勤務|会社|職|部|課|所属|社員|学生|アルバイト|バイト|パート",
    },
    "device": {
        "cue_en": r"\bswitched to\b|\btraded in\b|\breplaced\b|\bupgraded to\b",
        "cue_ja": r"乗り換え|買い替え|機種変更|替えた|変えた",
        "topic_en": r"\bcar\b|\bdrives?\b|\bphone\b|\blaptop\b|\bcomputer\b|\bbike\b"
        r"|\buses?\b|\bcarrier\b|\bplan\b",
        "topic_ja": r"車|バイク|自転車|スマホ|携帯|パソコン|PC|使って|乗って|回線|プラン",
    },
}

# A plan or wish, not a fact yet: it cannot end a current state.
PLAN = {
    "en": r"\bplan\w*|\bwill\b|\bgoing to\b|\bwants? to\b|\bhop(?:e|es|ing) to\b"
    r"|\bthinking (?:of|about)\b",
    "ja": r"予定|つもり|したい|計画|考えている",
}

# Single-valued statuses: one value at a time, so a new value ends the old one.
STATUS_SLOTS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "relationship status": {
        "en": (
            ("single", r"\bsingle\b"),
            ("dating", r"\bdating\b|\bhas a (?:boy|girl)friend\b|\bin a relationship\b"),
            ("engaged", r"\bengaged\b"),
            ("married", r"\bmarried\b"),
            ("divorced", r"\bdivorced\b"),
        ),
        "ja": (
            ("single", r"独身|恋人がいない|彼氏がいない|彼女がいない"),
            ("dating", r"付き合っ|交際|恋人がいる|彼氏がいる|彼女がいる"),
            ("engaged", r"婚約"),
            ("married", r"結婚し|既婚"),
            ("divorced", r"離婚"),
        ),
    },
    "school": {
        "en": (
            ("nursery", r"\bdaycare\b|\bnursery\b|\bpreschool\b"),
            ("kindergarten", r"\bkindergarten\b"),
            ("elementary", r"\belementary\b|\bprimary school\b|\bgrade school\b"),
            ("middle school", r"\bmiddle school\b|\bjunior high\b"),
            ("high school", r"\bhigh school\b"),
            ("university", r"\buniversity\b|\bcollege\b"),
        ),
        "ja": (
            ("nursery", r"保育園|保育所"),
            ("kindergarten", r"幼稚園"),
            ("elementary", r"小学"),
            ("middle school", r"中学"),
            ("high school", r"高校"),
            ("university", r"大学"),
        ),
    },
}

# Working towards something ("studying for a sommelier diploma") and finishing it ("passed").
PURSUIT = {
    "en": r"\b(?:studying|preparing|training|practicing|practising|revising) for\b|\bworking on\b"
    r"|\bapplying (?:for|to)\b|\blooking for\b|\btrying to\b",
    "ja": r"(?:に向けて|のために|の)(?:勉強|準備|練習|対策)|を探して|目指して",
}
COMPLETED = {
    "en": r"\bpassed\b|\bfinished\b|\bcompleted\b|\bfound (?:a|an|her|his)\b|\bgot into\b"
    r"|\bwas accepted\b|\bgot the job\b",
    "ja": r"合格|終え|終わっ|完成|完走|見つかっ|見つけ|受かっ|採用され",
}

# When something happened: two memories dated differently are two occasions.
OCCASION = {
    "en": r"\b(?:19|20)\d\d\b|\b(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)\b|\b(?:last|this|next) (?:week|month|year|spring"
    r"|summer|fall|autumn|winter|weekend)\b|\byesterday\b"
    r"|\b(?:morning|afternoon|evening|night|bedtime)s?\b|\bbefore (?:going to )?bed\b",
    "ja": r"去年|昨年|今年|来年|先月|今月|来月|先週|今週|来週|昨日|\d+月|(?:19|20)\d\d年"
    r"|(?:この|今年の|去年の|来年の)?[春夏秋冬]|朝|昼|夜|晩|寝る前",
}

# "favourite X is Y": one favourite at a time.
FAVORITE_VALUE = {
    "en": r"\bfavou?rite (?P<kind>[a-z]+(?: [a-z]+)?)"
    r"(?: (?:these days|nowadays|now|right now|lately))? (?:is|are|was) (?P<value>[^.,;]+)",
    "ja": r"(?:一番)?(?:好きな|お気に入りの)(?P<kind>[^\s、。はがを]{1,8})は(?:今は|最近は)?"
    r"(?P<value>[^\s、。]+)",
}
