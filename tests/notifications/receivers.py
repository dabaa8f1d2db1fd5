"""Real receivers on the loopback for the notifications tests: an HTTP server in a thread that answers each
request with the next of a list of scripted answers (status, headers, delay) and keeps what it received; and
an SMTP server (aiosmtpd) that keeps each message and refuses the recipients it is told to."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: str


@dataclass
class HttpReceiver:
    answers: list[tuple[int, dict[str, str], float]] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)

    def __enter__(self) -> HttpReceiver:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length).decode()
                owner.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status, headers, delay = owner.answers.pop(0) if owner.answers else (200, {}, 0.0)
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class SmtpReceiver:
    """aiosmtpd on the loopback; ``refuse`` names recipients answered ``550`` (a permanent bounce)."""

    def __init__(self, refuse=()):
        self.refuse = {a.lower() for a in refuse}
        self.messages = []

    def __enter__(self) -> SmtpReceiver:
        from aiosmtpd.controller import Controller

        owner = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                if address.lower() in owner.refuse:
                    return "550 5.1.1 no such mailbox"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                owner.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
                return "250 Message accepted"

        with socket.socket() as probe:  # a free port (aiosmtpd checks it is up by connecting to it)
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()

    def to(self, address: str):
        return [m for rcpt, m in self.messages if address in rcpt]
