"""The shared POST channel's helpers: Retry-After parsing, safe URLs, non-retryable failures."""

from __future__ import annotations

import httpx
import pytest

from omoide.errors import UpstreamUnavailable
from omoide.llm._http import Channel, public_url, retry_after


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        pytest.param("7", 7.0, id="integer"),
        pytest.param("0.25", 0.25, id="fraction"),
        pytest.param("-3", 0.0, id="negative-clamped"),
        pytest.param("Wed, 21 Oct 2015 07:28:00 GMT", 0.0, id="date-in-the-past"),
        pytest.param("soon", None, id="garbage"),
        pytest.param(None, None, id="absent"),
    ],
)
def test_retry_after_reads_seconds_or_http_date(header, seconds):
    assert retry_after(header) == seconds


def test_public_url_drops_credentials_query_and_fragment():
    url = "https://bob:hunter2@llm.example:8443/v1/chat/completions?key=abc#x"

    assert public_url(url) == "https://llm.example:8443/v1/chat/completions"


def test_channel_does_not_retry_a_redirect_loop():
    calls: list[int] = []

    def handle(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        raise httpx.TooManyRedirects("Exceeded maximum allowed redirects.", request=request)

    channel = Channel(
        provider="openai",
        model="m",
        url="http://llm.test/v1/chat/completions",
        headers={},
        timeout_s=1.0,
        max_retries=3,
        backoff_s=0.0,
        transport=httpx.MockTransport(handle),
        sleep=lambda _: None,
    )

    with pytest.raises(UpstreamUnavailable, match="after 1 attempt: TooManyRedirects") as caught:
        channel.post({})

    assert isinstance(caught.value.__cause__, httpx.TooManyRedirects)
    assert calls == [1]
    channel.close()
