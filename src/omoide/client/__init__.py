"""Python client for an Omoide server (sync and async, on httpx): one method per route.

    from omoide.client import Client
    from omoide.errors import NotFound

    with Client("http://127.0.0.1:8765", api_key="omo_p_…") as omoide:
        omoide.create_memory("rin", "The user lives in Tokyo")
        try:
            omoide.get_memory("rin", "mem_missing")
        except NotFound as exc:
            print(exc.code, exc.message)

See ``docs/client.md``.
"""

from omoide.client.aio import AsyncClient
from omoide.client.errors import OmoideError, error_from_response, known_codes
from omoide.client.sync import Client

__all__ = ["AsyncClient", "Client", "OmoideError", "error_from_response", "known_codes"]
