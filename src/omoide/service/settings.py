"""Per-persona runtime settings: stored overrides merged over the process defaults."""

from __future__ import annotations

from typing import Any

from omoide.config import PersonaSettings, merge_persona_settings, validate_setting_patch
from omoide.errors import Conflict, InvalidInput, OmoideError
from omoide.store.port import Store

__all__ = ["SettingsService"]

WEIGHTS = frozenset({"keyword_weight", "semantic_weight"})  # search's pair, one above 0
# the chat proxy's pair: the memory section is part of the whole request, so not above it
BUDGETS = frozenset({"chat_budget_tokens", "chat_memory_budget_tokens"})


class SettingsService:
    def __init__(self, store: Store, defaults: PersonaSettings) -> None:
        self.store = store
        self.defaults = defaults

    def get(self, persona: str) -> PersonaSettings:
        return merge_persona_settings(self.defaults, self.store.persona_settings(persona))

    def update(self, persona: str, patch: dict[str, Any]) -> PersonaSettings:
        """Validate and store overrides (``null`` resets one to its default); returns the
        effective settings."""
        resets = {k: None for k, v in patch.items() if v is None}
        clean = validate_setting_patch({k: v for k, v in patch.items() if v is not None})
        # a reset must still name a known setting (its default is always valid)
        validate_setting_patch({k: getattr(self.defaults, k, None) for k in resets})

        def check(stored: dict[str, Any]) -> None:
            """Run by the store on the overrides as they will be stored, in the transaction
            that stores them: checked before it, two concurrent PUTs ({keyword_weight: 0},
            {semantic_weight: 0}) each passed and left both at 0, and every search of the
            persona (so its chat proxy and MCP search too) was refused until one was reset.
            Only a change of a weight is checked: a persona's stored 0 that meets a server
            default of 0 (restarted so) is set aside by the merge, and a change of another
            setting (its time zone) leaves that pair as it was, so it is not refused for it."""
            if BUDGETS & patch.keys():
                _check_budgets(self.defaults, stored, patch)
            if not WEIGHTS & patch.keys():
                return
            after = merge_persona_settings(self.defaults, stored, as_stored=True)
            if after.keyword_weight + after.semantic_weight == 0:
                raise _refusal(patch, WEIGHTS)(
                    _both_zero(stored),
                    setting="keyword_weight" if "keyword_weight" in patch else "semantic_weight",
                )

        self.store.update_persona_settings(persona, {**clean, **resets}, check=check)
        return self.get(persona)

    def overrides(self, persona: str) -> dict[str, Any]:
        return self.store.persona_settings(persona)


def _refusal(patch: dict[str, Any], pair: frozenset[str]) -> type[OmoideError]:
    """The status of a change leaving a pair of settings that does not hold together (both
    search weights 0, a memory budget above the whole chat budget), as the API refuses any two
    values that do not (a memory's validity, a block's content against its ``max_tokens``):
    a 422 when this request sets both values itself (its body does not hold together), a 409
    when one of them is the persona's stored setting or the server default (the request
    conflicts with it). docs/api.md (its status table), docs/settings.md."""
    return InvalidInput if all(patch.get(name) is not None for name in pair) else Conflict


def _source(name: str, stored: dict[str, Any]) -> str:
    """Where a setting's value comes from, as a refusal names it: the persona's own override,
    or the server default (``OMOIDE_<NAME>``)."""
    return "this persona's setting" if name in stored else f"server default OMOIDE_{name.upper()}"


def _both_zero(stored: dict[str, Any]) -> str:
    """The refusal of a change leaving both search weights at 0, naming where each 0 comes from:
    the persona's own override, or the server default (``OMOIDE_<NAME>``)."""
    sources = [
        f"{name} = 0 ({_source(name, stored)})" for name in ("keyword_weight", "semantic_weight")
    ]
    return (
        f"keyword_weight and semantic_weight cannot both be 0 (search would have no "
        f"ranking signal): {', '.join(sources)}; keep one above 0"
    )


def _check_budgets(
    defaults: PersonaSettings, stored: dict[str, Any], patch: dict[str, Any]
) -> None:
    """Refuse a change leaving the persona's own ``chat_memory_budget_tokens`` above
    ``chat_budget_tokens`` (422 or 409: :func:`_refusal`).

    Why: the memory section is part of the request ``chat_budget_tokens`` bounds, so a larger
    memory budget made a section over the whole budget, and only a log line said so. Checked
    like the weights, in the transaction that stores the change and only when it sets one of
    the two. A memory budget the persona does not set (the server default, 800) is not held
    against a smaller ``chat_budget_tokens`` (its range starts at 200): the chat proxy cuts
    the section to the whole budget, as it does for a persona stored with such a pair before
    this check (``service/chat.py``). The message names both values and where each comes
    from."""
    after = merge_persona_settings(defaults, stored, as_stored=True)
    if (
        "chat_memory_budget_tokens" not in stored
        or after.chat_memory_budget_tokens <= after.chat_budget_tokens
    ):
        return

    def shown(name: str) -> str:
        return f"{name} = {getattr(after, name)} ({_source(name, stored)})"

    raise _refusal(patch, BUDGETS)(
        f"chat_memory_budget_tokens cannot exceed chat_budget_tokens (the memory section is "
        f"part of the whole request): {shown('chat_memory_budget_tokens')}, "
        f"{shown('chat_budget_tokens')}; lower chat_memory_budget_tokens or raise "
        f"chat_budget_tokens",
        setting="chat_memory_budget_tokens"
        if "chat_memory_budget_tokens" in patch
        else "chat_budget_tokens",
    )
