"""The fixed wording of the context, in English and Japanese (data): section headings, the fixed
lines (intro, address, session, stats) and the labels of well-known state keys, read by
:mod:`omoide.engine.context`.
"""

from __future__ import annotations

from omoide.engine.lang import Lang

__all__ = ["LABELS", "TEXT"]

# One entry per ``context_model.Section`` value (its heading) plus the fixed lines.
TEXT: dict[Lang, dict[str, str]] = {
    Lang.EN: {
        "title": "# Context for {persona}",
        "persona": "Persona",
        "user": "User",
        "session": "Session",
        "blocks": "Memory blocks",
        "recent_memories": "Recent memories",
        "last_conversation": "Last conversation (what was said, not yet in memories)",
        "important_memories": "Important memories",
        "stats": "Memory stats",
        "intro": "You are {persona}.",
        "address": 'Address the user as "{address}".',
        "no_address": "The user's name is not known yet.",
        "first": "This is the first session.",
        "just_now": "The last session was just now.",
        "since": "The last session was {words}.",
        # The counts said with their nouns (``counts.how_many``): "1 active memory … 1 link".
        "stats_line": "{active_words} ({superseded} superseded), "
        "mean strength {mean:.2f}, {links_words}.",
        "strength": " (strength {value:.2f})",
        "another_conversation": "(another conversation)",
    },
    Lang.JA: {
        "title": "# {persona} のコンテキスト",
        "persona": "ペルソナ",
        "user": "ユーザー",
        "session": "セッション",
        "blocks": "メモリブロック",
        "recent_memories": "最近の記憶",
        "last_conversation": "前回の会話（まだ記憶になっていない発言）",
        "important_memories": "重要な記憶",
        "stats": "記憶の統計",
        "intro": "あなたは {persona} です。",
        "address": "ユーザーを「{address}」と呼んでください。",
        "no_address": "ユーザーの名前はまだ分かりません。",
        "first": "初めての会話です。",
        "just_now": "前回の会話はさっきです。",
        "since": "{words}の会話です。",
        "stats_line": "有効な記憶 {active} 件（置き換え済み {superseded} 件）、"
        "平均強度 {mean:.2f}、リンク {links} 件。",
        "strength": "（強度 {value:.2f}）",
        "another_conversation": "（別の会話）",
    },
}
LABELS: dict[Lang, dict[str, str]] = {
    Lang.EN: {
        "preferred_address": "preferred address",
        "emotion_intensity": "emotion intensity",
        "current_activity": "current activity",
    },
    Lang.JA: {
        "name": "名前",
        "nickname": "ニックネーム",
        "preferred_address": "呼び方",
        "emotion": "感情",
        "emotion_intensity": "感情の強さ",
        "mood": "気分",
        "current_activity": "今していること",
        "goals": "目標",
    },
}
