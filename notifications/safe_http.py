"""One POST to a receiver's URL without letting that URL reach inside the server's network (SSRF), checked
when connecting, not when the URL was saved (a name that resolves elsewhere later: DNS rebinding).

http and https only; the host is resolved and every address it resolves to is checked: private, loopback,
link-local, reserved, multicast and unspecified addresses (and IPv4 ones inside IPv6) are refused unless
``WEBHOOK_ALLOW_PRIVATE`` is on. The connection goes to the address checked (TLS still verifies the host's
name and sends it for SNI), a redirect is never followed (it is a failure, saying where it pointed), and the
whole attempt has one timeout.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT_SECONDS = 15.0
READ_AT_MOST = 64 * 1024


class Refused(Exception):
    """The URL may not be sent to: its scheme, or an address it resolves to."""


@dataclass
class Answer:
    code: int | None = None
    error: str = ""
    duration_ms: int = 0
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.code is not None and 200 <= self.code < 300


def address_refused(address: str) -> str:
    """Why this address may not be reached (empty if it may)."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for what in ("loopback", "private", "link_local", "reserved", "multicast", "unspecified"):
        if getattr(ip, f"is_{what}"):
            return f"{address} is a {what.replace('_', '-')} address"
    if not ip.is_global:
        return f"{address} is not a public address"
    return ""


def check_url(url: str) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path with query; ``Refused`` if it is not http(s) with a host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise Refused("only http and https URLs are sent to")
    if not parts.hostname:
        raise Refused("the URL has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("the URL's port is not a number from 1 to 65535") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def literal_refused(url: str) -> str:
    """When a URL is saved: why its host, if an address itself, may not be reached (names are checked when
    connecting)."""
    _, host, _, _ = check_url(url)
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return ""
    return address_refused(host)


def resolve(host: str, port: int) -> list[tuple]:
    """Every address of ``host``, each checked; ``Refused`` if any may not be reached."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise Refused(f"{host} does not resolve ({exc.strerror})") from None
    if not settings.WEBHOOK_ALLOW_PRIVATE:
        for *_, sockaddr in found:
            if why := address_refused(sockaddr[0]):
                raise Refused(f"{host} resolves to {why}: refused (WEBHOOK_ALLOW_PRIVATE is off)")
    return found


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection over a socket already connected to the address checked."""

    def __init__(self, host: str, port: int, sock: socket.socket, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.sock = sock

    def connect(self):  # already connected
        return None


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT_SECONDS) -> Answer:
    """POST ``body``; the answer's code and headers, or the error that stopped it. Never raises for the
    receiver's fault (``Refused`` for a URL that may not be sent to)."""
    scheme, host, port, path = check_url(url)
    started = time.monotonic()
    answer = Answer()
    addresses = resolve(host, port)
    sock = None
    try:
        family, kind, proto, _, sockaddr = addresses[0]
        sock = socket.socket(family, kind, proto)
        sock.settimeout(timeout)
        sock.connect(sockaddr)
        if scheme == "https":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        conn = _Pinned(host, port, sock, timeout)
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                        "User-Agent": "ginscore-webhooks/1", **headers})
        response = conn.getresponse()
        response.read(READ_AT_MOST)
        answer.code = response.status
        answer.headers = {k.lower(): v for k, v in response.getheaders()}
        if 300 <= response.status < 400:
            answer.error = f"redirect not followed (to {answer.headers.get('location', '?')[:200]})"
        elif not answer.ok:
            answer.error = f"answered {response.status} {response.reason}"[:300]
        conn.close()
    except (OSError, http.client.HTTPException) as exc:
        answer.error = (f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)[:300]
    finally:
        if sock is not None:
            sock.close()
        answer.duration_ms = int((time.monotonic() - started) * 1000)
    return answer
