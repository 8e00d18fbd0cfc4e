"""uvicorn as the hub runs it: the hub's own HTTP protocol and the server's settings, for `hub serve` and the tests.

uvicorn answers a request it cannot parse (a header line without a colon, a length that is no number, a byte
outside ASCII in the path) itself, before any application sees it: a text/plain 400 without the headers every
other answer of the hub carries. :class:`HubHTTP` is uvicorn's own h11 protocol, given to uvicorn as its ``http``
class (``uvicorn.Config(http=...)`` takes a protocol class), whose 400 is written as the hub's: the security headers,
``Cache-Control: no-store`` and a JSON reason. It is also the parser always used, whether or not httptools is
installed, so the answer does not change with the machine. WebSockets are off (``ws="none"``): the hub has none,
and with a WebSocket library installed uvicorn would hand an upgrade request to the application as a WebSocket
session. (uvicorn still logs two warnings for an upgrade request, the second advising a WebSocket library: they
come from a private method of its protocol, left alone; the request is answered as any other.)
"""

from __future__ import annotations

import json
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import NO_STORE, SECURITY_HEADERS

MALFORMED = json.dumps({"error": "malformed HTTP request: the hub cannot read it"}).encode()


class HubHTTP(H11Protocol):
    """uvicorn's h11 protocol, with the hub's answer to a request it cannot parse."""

    def send_400_response(self, msg: str) -> None:
        headers = [*self.server_state.default_headers, *SECURITY_HEADERS, NO_STORE,
                   (b"content-type", b"application/json"), (b"content-length", str(len(MALFORMED)).encode()),
                   (b"connection", b"close")]
        try:
            output = [self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")),
                      self.conn.send(h11.Data(data=MALFORMED)), self.conn.send(h11.EndOfMessage())]
        except h11.LocalProtocolError:  # an answer already under way on this connection: nothing more can be said
            output = []
        for data in output:
            if data:
                self.transport.write(data)
        self.transport.close()


def config(app: Any, host: str, port: int, **settings: Any) -> uvicorn.Config:
    """The uvicorn settings of a hub serving ``app`` (``settings``: log level and the like)."""
    return uvicorn.Config(app, host=host, port=port, lifespan="off", http=HubHTTP, ws="none", **settings)
