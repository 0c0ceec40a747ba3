"""Any OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, vLLM, llama.cpp, OpenAI …).

``OMOIDE_EMBEDDER=openai`` with ``OMOIDE_EMBED_BASE_URL`` (up to and including ``/v1``),
``OMOIDE_EMBED_MODEL`` and, when the server wants one, ``OMOIDE_EMBED_API_KEY``. Texts go in
batches of ``OMOIDE_EMBED_BATCH``; 429, 5xx, timeouts and connection errors are retried with
backoff (the transport shared with the LLM adapters). Construction embeds one probe text: an
unreachable endpoint, a rejected key or an unknown model stops start-up with a message that
names the URL and the variable to check, and the probe tells the vector size (so a server that
changed its model's size is caught by the data folder's embedder record). The model id is
``openai:<model>``; its calibration is the one ``omoide calibrate`` stored for the folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from omoide.embed.base import normalise
from omoide.engine.calibration import IDENTITY, Calibration
from omoide.errors import InvalidInput, UpstreamUnavailable
from omoide.llm._http import Channel

__all__ = ["OpenAIEmbedder"]

PROBE_TEXT = "Omoide embedding probe"
_HINTS = {
    401: "check OMOIDE_EMBED_API_KEY",
    403: "check OMOIDE_EMBED_API_KEY",
    404: "check OMOIDE_EMBED_BASE_URL (it ends in /v1) and OMOIDE_EMBED_MODEL",
}


class OpenAIEmbedder:
    calibration: Calibration = IDENTITY

    def __init__(
        self,
        *,
        base_url: str | None,
        model: str | None,
        api_key: str | None = None,
        batch: int = 64,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not base_url or not model:
            raise InvalidInput(
                "OMOIDE_EMBEDDER=openai needs OMOIDE_EMBED_BASE_URL (e.g. "
                "http://localhost:11434/v1) and OMOIDE_EMBED_MODEL"
            )
        if batch < 1:
            raise InvalidInput("OMOIDE_EMBED_BATCH must be at least 1")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.model = model
        self.batch = batch
        self.model_id = f"openai:{model}"
        self._channel = Channel(
            provider="embedding endpoint",
            model=model,
            url=base_url.rstrip("/") + "/embeddings",
            headers=headers,
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            transport=transport,
        )
        self.dim = 0
        self.dim = int(self._post([PROBE_TEXT]).shape[1])

    def close(self) -> None:
        self._channel.close()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self._post(list(texts[i : i + self.batch])) for i in range(0, len(texts), self.batch)
        ]
        return normalise(np.concatenate(parts))

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_passages([text])[0]

    def _post(self, texts: list[str]) -> np.ndarray:
        exchange = self._channel.post({"model": self.model, "input": texts})
        if exchange.status >= 400:
            error = self._channel.rejected(exchange)
            hint = _HINTS.get(exchange.status)
            message = error.message.split(" (check OMOIDE_LLM")[0]
            raise UpstreamUnavailable(message + (f" ({hint})" if hint else ""), **error.fields)
        return self._vectors(self._channel.json_of(exchange), len(texts))

    def _vectors(self, body: dict[str, Any], count: int) -> np.ndarray:
        data = body.get("data")
        shown = self._channel.shown_url
        if not isinstance(data, list) or len(data) != count:
            raise UpstreamUnavailable(
                f"embedding endpoint at {shown} answered without {count} embeddings in 'data'",
                url=shown,
            )
        rows = sorted(data, key=lambda d: d.get("index", 0) if isinstance(d, dict) else 0)
        try:
            matrix = np.array([row["embedding"] for row in rows], dtype=np.float32)
        except (KeyError, TypeError, ValueError):
            raise UpstreamUnavailable(
                f"embedding endpoint at {shown} sent embeddings that are "
                "not lists of numbers of one size",
                url=shown,
            ) from None
        if matrix.ndim != 2 or matrix.shape[1] == 0 or not np.isfinite(matrix).all():
            raise UpstreamUnavailable(
                f"embedding endpoint at {shown} sent empty or non-finite embeddings", url=shown
            )
        if self.dim and matrix.shape[1] != self.dim:
            raise UpstreamUnavailable(
                f"embedding endpoint at {shown} now returns {matrix.shape[1]} dimensions for "
                f"{self.model}, not {self.dim}; the model behind it changed — restart, then "
                "run `omoide reindex`",
                url=shown,
            )
        return matrix
