"""A gRPC call spoken by hand over HTTP/2 (the ``h2`` library on a plain socket), to send what a
real client never sends: header values that are not text, a request cut short, no end of stream."""

from __future__ import annotations

import socket
import struct
import time
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events


def frame(message: bytes) -> bytes:
    """A gRPC length-prefixed message (not compressed)."""
    return b"\x00" + struct.pack(">I", len(message)) + message


@dataclass
class Outcome:
    """What the server did with a call: its headers and trailers, whether it ended or reset the
    stream, and when (seconds after the call was sent)."""

    headers: dict[bytes, bytes] = field(default_factory=dict)
    ended_after: float | None = None
    reset_after: float | None = None
    closed: bool = False

    @property
    def status(self) -> int | None:
        """The ``grpc-status`` of the reply (headers or trailers), if any."""
        value = self.headers.get(b"grpc-status")
        return int(value) if value is not None else None

    @property
    def done_after(self) -> float | None:
        """Seconds until the stream ended or was reset (None: neither before the wait ran out)."""
        times = [t for t in (self.ended_after, self.reset_after) if t is not None]
        return min(times) if times else None


def call(
    port: int,
    path: str,
    body: bytes = b"",
    *,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
    end_stream: bool = False,
    wait: float = 10.0,
) -> Outcome:
    """Send a call of ``path`` (``/pkg.Service/Method``) to ``127.0.0.1:port``: its headers (and
    ``extra_headers``, sent as given, bytes and all), then ``body`` if any, ending the stream only
    when ``end_stream``; read until the server ends or resets the stream, closes the connection,
    or ``wait`` seconds pass."""
    outcome = Outcome()
    config = h2.config.H2Configuration(
        client_side=True, header_encoding=None, validate_outbound_headers=False, normalize_outbound_headers=False
    )
    conn = h2.connection.H2Connection(config)
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        conn.initiate_connection()
        stream = conn.get_next_available_stream_id()
        headers = [
            (b":method", b"POST"),
            (b":scheme", b"http"),
            (b":path", path.encode()),
            (b":authority", b"localhost"),
            (b"content-type", b"application/grpc"),
            (b"te", b"trailers"),
            *(extra_headers or []),
        ]
        conn.send_headers(stream, headers, end_stream=end_stream and not body)
        if body:
            conn.send_data(stream, body, end_stream=end_stream)
        sock.sendall(conn.data_to_send())
        sent = time.monotonic()
        deadline = sent + wait
        while outcome.done_after is None and time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = sock.recv(65536)
            except TimeoutError:
                break
            if not data:
                outcome.closed = True
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived | h2.events.TrailersReceived):
                    outcome.headers.update(dict(event.headers))
                elif isinstance(event, h2.events.StreamEnded):
                    outcome.ended_after = time.monotonic() - sent
                elif isinstance(event, h2.events.StreamReset):
                    outcome.reset_after = time.monotonic() - sent
            pending = conn.data_to_send()
            if pending:
                sock.sendall(pending)
    return outcome
