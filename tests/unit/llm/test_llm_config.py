"""llm_config_from_env and make_llm: settings in, an adapter (or None) out, clear errors."""

from __future__ import annotations

import httpx
import pytest

from omoide.config import Settings, llm_config_from_env
from omoide.errors import InvalidInput
from omoide.llm import LLM, LLMConfig, Message, make_llm


def test_llm_config_from_env_defaults_to_no_llm():
    cfg = llm_config_from_env({"PATH": "/bin"})

    assert cfg == LLMConfig()
    assert make_llm(cfg) is None


def test_llm_config_from_env_reads_every_variable():
    cfg = llm_config_from_env(
        {
            "OMOIDE_LLM_PROVIDER": " OpenAI ",
            "OMOIDE_LLM_BASE_URL": "http://localhost:11434/v1",
            "OMOIDE_LLM_API_KEY": "k",
            "OMOIDE_LLM_MODEL": "qwen2.5:7b",
            "OMOIDE_LLM_TIMEOUT": "12.5",
            "OMOIDE_LLM_MAX_RETRIES": "0",
        }
    )

    assert cfg == LLMConfig(
        provider="openai",
        base_url="http://localhost:11434/v1",
        api_key="k",
        model="qwen2.5:7b",
        timeout_s=12.5,
        max_retries=0,
    )


@pytest.mark.parametrize(
    ("provider", "url"),
    [
        pytest.param("openai", "https://api.openai.com/v1", id="openai"),
        pytest.param("anthropic", "https://api.anthropic.com", id="anthropic"),
    ],
)
def test_llm_config_from_env_fills_the_provider_default_base_url(provider, url):
    cfg = llm_config_from_env({"OMOIDE_LLM_PROVIDER": provider, "OMOIDE_LLM_BASE_URL": ""})

    assert cfg.base_url == url


def test_settings_carry_the_llm_config_as_a_typed_field():
    settings = Settings.from_env(
        {"OMOIDE_LLM_PROVIDER": "anthropic", "OMOIDE_LLM_MODEL": "m", "OMOIDE_LLM_TIMEOUT": "7"}
    )

    assert settings.llm == LLMConfig(
        provider="anthropic", base_url="https://api.anthropic.com", model="m", timeout_s=7.0
    )
    assert Settings.from_env({}).llm == LLMConfig()


def test_settings_refuse_a_bad_llm_variable_at_start_up():
    with pytest.raises(InvalidInput) as caught:
        Settings.from_env({"OMOIDE_LLM_MAX_RETRIES": "many"})

    assert "OMOIDE_LLM_MAX_RETRIES" in str(caught.value)


def test_llm_config_repr_hides_the_api_key():
    assert "sk-hidden" not in repr(LLMConfig(provider="openai", api_key="sk-hidden"))


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        pytest.param({"OMOIDE_LLM_PROVIDER": "gemini"}, "OMOIDE_LLM_PROVIDER", id="provider"),
        pytest.param({"OMOIDE_LLM_TIMEOUT": "soon"}, "OMOIDE_LLM_TIMEOUT", id="timeout-text"),
        pytest.param({"OMOIDE_LLM_TIMEOUT": "0"}, "OMOIDE_LLM_TIMEOUT", id="timeout-zero"),
        pytest.param({"OMOIDE_LLM_TIMEOUT": "inf"}, "OMOIDE_LLM_TIMEOUT", id="timeout-inf"),
        pytest.param({"OMOIDE_LLM_MAX_RETRIES": "2.5"}, "OMOIDE_LLM_MAX_RETRIES", id="retries"),
        pytest.param({"OMOIDE_LLM_MAX_RETRIES": "-1"}, "OMOIDE_LLM_MAX_RETRIES", id="negative"),
        pytest.param({"OMOIDE_LLM_MAX_RETRIES": "99"}, "OMOIDE_LLM_MAX_RETRIES", id="too-many"),
        pytest.param(
            {"OMOIDE_LLM_BASE_URL": "localhost:8080"}, "OMOIDE_LLM_BASE_URL", id="no-scheme"
        ),
        pytest.param(
            {"OMOIDE_LLM_BASE_URL": "http://localhost:port/v1"},
            "OMOIDE_LLM_BASE_URL",
            id="bad-port",
        ),
    ],
)
def test_llm_config_from_env_names_the_bad_variable(environ, variable):
    with pytest.raises(InvalidInput) as caught:
        llm_config_from_env(environ)

    assert caught.value.message.startswith(f"{variable} ")
    assert caught.value.fields == {"field": variable}


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        pytest.param(
            LLMConfig(provider="openai", base_url="http://localhost:8080/v1"),
            "OMOIDE_LLM_MODEL is required when OMOIDE_LLM_PROVIDER=openai",
            id="openai-without-model",
        ),
        pytest.param(
            LLMConfig(provider="openai", model="gpt-4o-mini"),
            "OMOIDE_LLM_API_KEY is required for openai at https://api.openai.com/v1",
            id="openai-public-endpoint-without-key",
        ),
        pytest.param(
            LLMConfig(provider="anthropic", model="claude-x"),
            "OMOIDE_LLM_API_KEY is required for anthropic at https://api.anthropic.com",
            id="anthropic-without-key",
        ),
        pytest.param(
            LLMConfig(provider="cohere"),
            'OMOIDE_LLM_PROVIDER must be one of none, openai, anthropic, not "cohere"',
            id="unknown-provider",
        ),
    ],
)
def test_make_llm_rejects_an_incomplete_config(cfg, message):
    with pytest.raises(InvalidInput, match=message):
        make_llm(cfg)


def test_make_llm_builds_a_keyless_local_openai_compatible_adapter():
    cfg = LLMConfig(provider="openai", base_url="http://127.0.0.1:11434/v1", model="llama3.2")

    llm = make_llm(cfg)

    assert isinstance(llm, LLM)
    assert llm.name == "openai:llama3.2"


@pytest.mark.parametrize(
    ("provider", "answer"),
    [
        pytest.param("openai", {"choices": [{"message": {"content": "ok"}}]}, id="openai"),
        pytest.param("anthropic", {"content": [{"type": "text", "text": "ok"}]}, id="anthropic"),
    ],
)
def test_make_llm_sends_through_the_given_transport(provider, answer):
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json=answer)

    cfg = LLMConfig(provider=provider, base_url="http://llm.test", api_key="k", model="m")
    llm = make_llm(cfg, transport=httpx.MockTransport(handle))

    assert llm is not None
    assert llm.complete([Message("user", "hi")]) == "ok"
    assert seen == [
        "http://llm.test/chat/completions"
        if provider == "openai"
        else "http://llm.test/v1/messages"
    ]


def test_complete_rejects_an_unknown_role_before_calling():
    cfg = LLMConfig(provider="openai", base_url="http://llm.test", model="m")
    llm = make_llm(cfg, transport=httpx.MockTransport(lambda request: httpx.Response(500)))

    assert llm is not None
    with pytest.raises(InvalidInput, match="message role must be one of user, assistant") as e:
        llm.complete([Message("system", "hi")])
    assert str(e.value).endswith("not 'system'")  # named as the API names things, not repr
    with pytest.raises(InvalidInput, match=r"not 'it's\\n'$"):  # Python's repr: "it's\\n"
        llm.complete([Message("it's\n", "hi")])
    with pytest.raises(InvalidInput, match="at least one message"):
        llm.complete([])
