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

uvicorn bounds no request head either: a connection that sends nothing, or a head a header line at a time
(slowloris), stayed open for ever. :class:`HubHTTP` gives a head :data:`HEAD_SECONDS` to arrive, counted from the
connection, or from the end of the answer before it on a kept-alive connection: past it a connection that sent
nothing is closed, and one mid-head is answered 408 (with the hub's headers and a JSON reason) and closed. And an
answer the client reads nothing of for :data:`SEND_SECONDS` is dropped, its connection closed.
"""

from __future__ import annotations

import json
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import NO_STORE, SECURITY_HEADERS

MALFORMED = json.dumps({"error": "malformed HTTP request: the hub cannot read it"}).encode()
HEAD_SECONDS = 30.0  # a request's line and headers must arrive within this (its body has app.BODY_SECONDS)
SEND_SECONDS = 60.0  # an answer the client has read nothing of for this long is dropped, its connection closed


class HubHTTP(H11Protocol):
    """uvicorn's h11 protocol, with the hub's answer to a request it cannot parse, and a bound on a head's arrival."""

    _head_timer: Any = None
    _head_cycle: Any = None
    _send_timer: Any = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_arrived()
        self._sending()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        # The client reads nothing (its buffers and the transport's are full): the answer waited for it for ever, its
        # task and connection held (walked: 20,000 answers pipelined and never read, held after 90 s).
        super().pause_writing()
        self._sending()
        self._send_timer = self.loop.call_later(SEND_SECONDS, self._send_stalled)

    def resume_writing(self) -> None:
        self._sending()
        super().resume_writing()

    def _sending(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _send_stalled(self) -> None:
        self._send_timer = None
        self.logger.info("an answer not read for %g s: its connection is closed", SEND_SECONDS)
        self.transport.abort()  # (the answer's task sees the client gone, and ends)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._head_cycle:  # a request's head parsed: its cycle runs (the body has its own bound)
            self._head_arrived()

    def on_response_complete(self) -> None:
        answered = self.cycle
        super().on_response_complete()  # (which parses a pipelined request already received, and starts its cycle)
        if not self.transport.is_closing():
            self._await_head(answered)
            if self.cycle is not answered:
                self._head_arrived()

    def _await_head(self, cycle: Any = None) -> None:
        self._head_arrived()
        self._head_cycle = cycle
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _head_arrived(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        # Something of a head received, and no answer under way on this connection: said, as a 408. Nothing received
        # (an idle connection), or the rest of a body the answer did not read: closed, as uvicorn's keep-alive does.
        if self.conn.our_state is h11.IDLE and (self.conn.their_state is not h11.IDLE or self.conn.trailing_data[0]):
            body = json.dumps({"error": f"the request's head did not arrive within {HEAD_SECONDS:g} s"}).encode()
            headers = [*self.server_state.default_headers, *SECURITY_HEADERS, NO_STORE,
                       (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close")]
            # (written as bytes: h11 sends no answer before it has read a request)
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\n"
                                 + b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n" + body)
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        headers = [*self.server_state.default_headers, *SECURITY_HEADERS, NO_STORE,
                   (b"content-type", b"application/json"), (b"content-length", str(len(MALFORMED)).encode()),
                   (b"connection", b"close")]
        output = []
        try:
            output.append(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
            output.append(self.conn.send(h11.Data(data=MALFORMED)))
            output.append(self.conn.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:
            # An answer already under way on this connection (nothing more can be said), or the answer to a HEAD
            # request, which h11 lets carry no body: its status and headers are sent alone (they were dropped).
            pass
        for data in output:
            if data:
                self.transport.write(data)
        self.transport.close()


def config(app: Any, host: str, port: int, **settings: Any) -> uvicorn.Config:
    """The uvicorn settings of a hub serving ``app`` (``settings``: log level and the like)."""
    return uvicorn.Config(app, host=host, port=port, lifespan="off", http=HubHTTP, ws="none", **settings)
