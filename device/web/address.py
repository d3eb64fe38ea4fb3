"""`--web [HOST:]PORT`: where the web page listens, and the address a phone on the network opens."""

from __future__ import annotations

import socket

from device.errors import UsageError

ANY_HOST = "0.0.0.0"


def parse_listen(text: str, default_host: str = ANY_HOST) -> tuple[str, int]:
    """'8080' -> (default_host, 8080); 'HOST:PORT' -> (HOST, PORT); '[::1]:80' too. UsageError otherwise."""
    text = str(text).strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = default_host, text
    host = host.strip("[]") or default_host
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise UsageError(f"--web takes [HOST:]PORT with a port from 0 to 65535 (0: any free one), "
                         f"not {text!r}")
    return host, int(port_text)


def page_url(host: str, port: int) -> str:
    """The URL to open: for a server on every interface, this machine's address on the local network."""
    if host in (ANY_HOST, "::", ""):
        host = _local_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _local_address() -> str:
    """The address other machines reach this one by (no packet is sent: a UDP socket only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
            if not address.startswith("0."):
                return address
    except OSError:
        pass
    return "127.0.0.1"
