"""An SSLContext that loads the default CA certificates at its first handshake, not when made.

p2ptarot/_startup.py has aiohttp build its two default contexts of this class: a LAN peer on
plain ``ws://`` never pays the ~40 ms per context of reading the system's certificates, and a
``wss://`` link verifies against exactly the certificates it would have loaded.
"""

from __future__ import annotations

import ssl
from typing import Any

_DEFERRED = "_p2ptarot_deferred_verify_paths"


class DeferredCertsContext(ssl.SSLContext):
    """An SSLContext whose default CA certificates are loaded at its first handshake."""

    def set_default_verify_paths(self) -> None:
        setattr(self, _DEFERRED, True)

    def _load_deferred(self) -> None:
        if self.__dict__.pop(_DEFERRED, False):
            super().set_default_verify_paths()

    def wrap_socket(self, *args: Any, **kwargs: Any) -> Any:
        self._load_deferred()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> Any:
        self._load_deferred()
        return super().wrap_bio(*args, **kwargs)

    def get_ca_certs(self, binary_form: bool = False) -> Any:
        self._load_deferred()
        return super().get_ca_certs(binary_form)

    def cert_store_stats(self) -> Any:
        self._load_deferred()
        return super().cert_store_stats()


def defer(context: ssl.SSLContext) -> None:
    """Turn a context whose ``set_default_verify_paths`` was skipped into one that makes that
    call at its first handshake (the same layout: only the class changes)."""
    context.__class__ = DeferredCertsContext
    setattr(context, _DEFERRED, True)
