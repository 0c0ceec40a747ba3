"""What ``omoide/api/http/protocol.py`` takes from uvicorn's h11 protocol, which is not a public
API: if a uvicorn release moves one of these, this names it (the live behaviour is tested in
tests/integration/api/test_hostile_probe15.py)."""

from __future__ import annotations

import inspect

from uvicorn.protocols.http import h11_impl

from omoide.api.http.protocol import OmoideH11Protocol

SOURCE = inspect.getsource(h11_impl.H11Protocol)


def test_the_overridden_methods_exist_with_their_signatures() -> None:
    base = h11_impl.H11Protocol
    assert list(inspect.signature(base.data_received).parameters) == ["self", "data"]
    assert list(inspect.signature(base.send_400_response).parameters) == ["self", "msg"]
    assert issubclass(OmoideH11Protocol, base)


def test_uvicorn_still_answers_unreadable_requests_through_send_400_response() -> None:
    assert "self.send_400_response(" in SOURCE  # else our JSON 400 is never sent


def test_the_attributes_read_are_still_set_by_uvicorn() -> None:
    assert "self.conn = h11.Connection(" in SOURCE  # their_state, trailing_data, send()
    assert "self.transport = transport" in SOURCE
