"""Reading chat files, pure: an OpenAI-format message list (or ``{"messages": [...]}``), a
ChatGPT export (``conversations.json``: conversations with a ``mapping`` tree) or a Claude
export (conversations with ``chat_messages``), as conversations of user and assistant turns.

A conversation without an id of its own (an OpenAI message list; a ChatGPT or Claude
conversation whose id is missing) is named by its content (:func:`content_id`): the same
conversation imported again is the same session, a different one is another. The field
mapping is documented in ``docs/import.md``.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from omoide.engine.blank import is_blank
from omoide.engine.errors import named, quoted
from omoide.engine.peer_formats import PeerFormatError, Stamp, foreign_time

__all__ = ["ChatConversation", "ChatTurn", "content_id", "parse_chat"]


@dataclass(frozen=True)
class ChatTurn:
    role: str  # user | assistant
    content: str
    timestamp: Stamp
    external_id: str
    # The message had no id of its own (none, or one showing nothing): ``external_id`` is its
    # place. A server before session 44 stored a blank one as the turn's id (an import matches
    # such a stored turn by its role and text, ``service.peer_import``).
    unnamed: bool = False


@dataclass(frozen=True)
class ChatConversation:
    id: str
    title: str
    started_at: Stamp
    turns: tuple[ChatTurn, ...]
    # The user's and assistant's messages left out because they hold no text: the kinds of
    # their parts ("image_url", "file"…; "empty" for none), one entry per message.
    without_text: tuple[str, ...] = ()


@dataclass
class _Said:
    """A conversation's user and assistant messages as read, in order: its turns, and the part
    kinds of each message that held no text (``ChatConversation.without_text``)."""

    turns: list[ChatTurn] = field(default_factory=list)
    without_text: list[str] = field(default_factory=list)

    def add(
        self, role: str | None, content: Any, text: str, when: Any, given: Any, place: str | int
    ) -> None:
        """One message: with a role and text, a turn said at ``when`` (the file's time) named
        by its id ``given`` or, without one (:func:`_own_id`), by its ``place``; with a role and no
        text, the kinds of its ``content``; without a role (a system or tool message), nothing."""
        if role and text:
            own = _own_id(given)
            turn_id = str(place if own is None else own)
            self.turns.append(
                ChatTurn(role, text, foreign_time(when), turn_id, unnamed=own is None)
            )
        elif role:
            self.without_text.append(_part_kinds(content))

    def named_by_content(self) -> str:
        return content_id(tuple(self.turns))

    def conversation(self, conv_id: str, title: str, started_at: Stamp) -> ChatConversation:
        return ChatConversation(
            conv_id, title, started_at, tuple(self.turns), tuple(self.without_text)
        )


def content_id(turns: tuple[ChatTurn, ...]) -> str:
    """16 hex digits naming a conversation by what was said in it (each turn's role and text,
    in order): the same of any file that holds those turns, however its JSON is laid out,
    titled or timed; a different conversation gets another."""
    said = json.dumps([[t.role, t.content] for t in turns], ensure_ascii=False)
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:16]


# -- chats -----------------------------------------------------------------------------------

_ROLES = {"user": "user", "human": "user", "assistant": "assistant", "model": "assistant"}
# Roles of messages that are not turns of the conversation (kept out, as a chat client hides
# them); any other role is a mistake in the file, refused rather than dropped silently.
_SKIPPED_ROLES = frozenset({"system", "developer", "tool", "function", "ipython"})


def _role(value: Any, where: str) -> str | None:
    """The turn role of a message's role (None: a message that is not a turn)."""
    if value is None or (isinstance(value, str) and value in _SKIPPED_ROLES):
        return None
    role = _ROLES.get(value) if isinstance(value, str) else None
    if role is None:
        shown = named(value) if isinstance(value, str) else quoted(value)
        raise PeerFormatError(
            f"{where}: unknown role {shown}; a turn's role is user (or "
            "human) or assistant (or model); system and tool messages are "
            "skipped"
        )
    return role


def _part_kinds(content: Any) -> str:
    """What a message without text held: its parts' types ("image_url", "image_asset_pointer"…),
    "a number" (or "a boolean") where its text belongs, or "empty"."""
    if isinstance(content, bool | int | float):  # a value where text belongs: say what
        return "a number" if not isinstance(content, bool) else "a boolean"
    parts = content.get("parts") if isinstance(content, dict) else content
    if isinstance(content, dict) and not isinstance(parts, list):
        parts = [content]
    kinds = sorted(
        {
            str(p.get("type") or p.get("content_type") or "unknown")
            for p in parts
            if isinstance(p, dict)
        }
        if isinstance(parts, list)
        else set()
    )
    return ", ".join(kinds) or "empty"


def _text(content: Any) -> str:
    """Message content: text, OpenAI content parts, ChatGPT ``parts`` or Claude blocks."""
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, dict):
        if "parts" in content:
            return _text(content["parts"])
        return _text(content.get("text"))
    if isinstance(content, list):
        parts = [
            _text(p) if not isinstance(p, dict) or p.get("type", "text") == "text" else ""
            for p in content
        ]
        return "\n".join(p for p in parts if p)
    return ""


def parse_chat(data: Any) -> list[ChatConversation]:
    """Conversations from any of the three chat shapes (system and tool turns left out)."""
    if isinstance(data, dict) and "messages" in data:
        return [_openai(data["messages"], str(data.get("title") or ""))]
    if isinstance(data, list) and data and all(isinstance(m, dict) and "role" in m for m in data):
        return [_openai(data, "")]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data:
        raise PeerFormatError(
            'a chat file is an OpenAI message list, {"messages": [...]}, or '
            "a ChatGPT / Claude conversations export"
        )
    out = []
    for i, conv in enumerate(data):
        if not isinstance(conv, dict):
            raise PeerFormatError(f"conversation {i}: must be an object")
        if "mapping" in conv:
            out.append(_chatgpt(conv, i))
        elif "chat_messages" in conv:
            out.append(_claude(conv, i))
        else:
            raise PeerFormatError(
                f"conversation {i}: neither a ChatGPT (mapping) nor a Claude "
                "(chat_messages) conversation"
            )
    return out


def _openai(messages: Any, title: str) -> ChatConversation:
    if not isinstance(messages, list):
        raise PeerFormatError("messages must be a list")
    said = _Said()
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise PeerFormatError(f"message {i}: must be an object")
        role = _role(message.get("role"), f"message {i}")
        content = message.get("content")
        said.add(role, content, _text(content), message.get("timestamp"), None, i)
    return said.conversation(said.named_by_content(), title, None)


def _chatgpt(conv: dict[str, Any], index: int) -> ChatConversation:
    mapping = conv.get("mapping")
    if not isinstance(mapping, dict):
        raise PeerFormatError(f"conversation {index}: mapping must be an object")
    # the branch the user last saw: from current_node up to the root, then reversed
    node_id = conv.get("current_node")
    chain = []
    seen: set[str] = set()
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        chain.append(node_id)
        node_id = _object(mapping[node_id], f"conversation {index}: node {node_id}").get("parent")
    if not chain:  # no current_node: every node in creation order
        chain = sorted(mapping, key=lambda k: _msg_time(mapping[k]))
    else:
        chain.reverse()
    said = _Said()
    for node in chain:
        where = f"conversation {index}: node {node}"
        message = _object(_object(mapping[node], where).get("message"), where)
        role = _role(
            _object(message.get("author"), where).get("role"),
            f"conversation {index}: message {message.get('id') or node}",
        )
        content = message.get("content")
        said.add(role, content, _text(content), message.get("create_time"), message.get("id"), node)
    return said.conversation(
        str(conv.get("conversation_id") or conv.get("id") or f"chatgpt-{said.named_by_content()}"),
        str(conv.get("title") or ""),
        foreign_time(conv.get("create_time")),
    )


def _own_id(given: Any) -> Any:
    """A message's id, or None when it has none: absent, empty or showing nothing (a turn's
    external id must show something; such an id is no id, and its place names the turn)."""
    if not given or (isinstance(given, str) and _shows_nothing(given)):
        return None
    return given


# Characters an id is no id of, beyond the blank ones (``engine.blank.is_blank``, the rule
# the service refuses a blank text by): those of these categories, which show nothing either
# (control and format characters, marks with no base, unassigned, private-use and surrogate
# code points, separators).
_UNSEEN_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Me", "Mn", "Zl", "Zp", "Zs"})


def _shows_nothing(text: str) -> bool:
    """Whether ``text`` holds no character that shows: each is blank (:func:`is_blank`) or of
    ``_UNSEEN_CATEGORIES``. So every text the service refuses as blank is one, and an id read
    here is never one its check refuses as blank."""
    return all(is_blank(c) or unicodedata.category(c) in _UNSEEN_CATEGORIES for c in text)


def _object(value: Any, where: str) -> dict[str, Any]:
    """A part of a ChatGPT export that must be an object (absent: empty); another JSON value
    there is refused (it raised AttributeError: HTTP 500)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PeerFormatError(f"{where}: must be an object, got {json.dumps(value)[:40]}")
    return value


def _msg_time(node: Any) -> float:
    message = node.get("message") if isinstance(node, dict) else None
    value = message.get("create_time") if isinstance(message, dict) else None
    return float(value) if isinstance(value, int | float) else 0.0


def _claude(conv: dict[str, Any], index: int) -> ChatConversation:
    messages = conv.get("chat_messages")
    if not isinstance(messages, list):
        raise PeerFormatError(f"conversation {index}: chat_messages must be a list")
    said = _Said()
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = _role(message.get("sender"), f"conversation {index}: message {i}")
        text = _text(message.get("text")) or _text(message.get("content"))
        said.add(
            role,
            message.get("content"),
            text,
            message.get("created_at"),
            message.get("uuid"),
            i,
        )
    return said.conversation(
        str(conv.get("uuid") or f"claude-{said.named_by_content()}"),
        str(conv.get("name") or ""),
        foreign_time(conv.get("created_at")),
    )
