"""What a p2ptarot command does not pay for at start-up unless it needs it (issue 35 item 2).

* aiohttp builds two default TLS contexts when ``aiohttp.connector`` is imported, and each loads
  the system's CA certificates (about 40 ms of CPU apiece). A LAN peer speaks plain ``ws://``
  and never uses them. While that module is imported, loading them is put off, and the contexts
  become :class:`~p2ptarot._deferred_tls.DeferredCertsContext`, which loads them at its first
  handshake: a ``wss://`` link verifies against the same certificates, loaded when first needed.
* aiohttp imports ``aiodns`` (and its C library) whenever it is installed, only to offer a
  resolver p2ptarot never asks for (it uses the default, threaded ``getaddrinfo`` resolver).
* The garbage collector runs full collections while the modules load (each import allocates
  thousands of objects, none of them garbage): :func:`collector_held` keeps it off while the
  command line is parsed and the command's modules are imported, then moves what is loaded out
  of its reach (`gc.freeze`), so the game's own collections no longer rescan the modules either.
* pydantic looks for plugins in the entry points of every installed distribution when it builds
  its first model; p2ptarot's models validate wire bytes and take no plugin (a user who wants
  one can still set PYDANTIC_DISABLE_PLUGINS, which is then left alone).

:func:`install` is called once by the command-line entry point, before anything is imported.
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

class _DeferCertsWhileImporting(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Runs ``aiohttp.connector``'s module body with the certificate loading of its contexts put off."""

    TARGET = "aiohttp.connector"

    def __init__(self) -> None:
        self._inner: importlib.abc.Loader | None = None

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        self._inner = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        assert self._inner is not None
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        assert self._inner is not None
        import ssl

        from p2ptarot._deferred_tls import DeferredCertsContext, defer

        made: list[ssl.SSLContext] = []
        real = ssl.SSLContext.set_default_verify_paths
        def put_off(context: ssl.SSLContext) -> None:
            made.append(context)

        setattr(ssl.SSLContext, "set_default_verify_paths", put_off)  # a method patched while importing
        try:
            self._inner.exec_module(module)
        finally:
            setattr(ssl.SSLContext, "set_default_verify_paths", real)
            for context in made:
                defer(context)


def install() -> None:
    """Set both levers up for this process (idempotent; no effect once aiohttp is loaded)."""
    if "aiohttp.connector" not in sys.modules and not any(
            isinstance(f, _DeferCertsWhileImporting) for f in sys.meta_path):
        sys.meta_path.insert(0, _DeferCertsWhileImporting())
    if "aiohttp.resolver" not in sys.modules:
        sys.modules.setdefault("aiodns", None)  # type: ignore[arg-type]  # None there makes `import aiodns` fail, as documented
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


@contextmanager
def collector_held(freeze: bool) -> Iterator[None]:
    """No garbage collection while the block imports modules; on leaving it, the collector is on
    again as it was found, and with `freeze` (a process's own command line, not a caller that
    imported `main` into a longer-lived process) everything loaded so far is frozen: modules,
    classes and functions live as long as the process, so scanning them again is wasted work.
    Objects created after the block are collected as before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was:
            gc.enable()
