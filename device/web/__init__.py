"""The table's web page: the live board, the games, set-up and settling from a phone (docs/DESIGN.md).

Everything here that needs aiohttp imports it inside `device.web.server`; `require_aiohttp()` turns its
absence into one clear line naming what to install, so `muggins run` without `--web` never needs it.
"""

from __future__ import annotations

from device.errors import HardwareMissingError


def require_aiohttp() -> None:
    """Raise HardwareMissingError naming the package when the web server's framework is missing."""
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise HardwareMissingError(
            "the web page needs aiohttp: pip install 'muggins[web]' (or pip install aiohttp)") from None
