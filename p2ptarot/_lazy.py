"""Names a package loads on first use (PEP 562), written once for every package that does it.

A command line that merely offers a feature should not pay for its imports: `verify` needs no
event loop, a bot peer no terminal, a LAN game no WebRTC. Each such package maps its public names
to the submodule defining them and hands the two hooks this returns to its module namespace."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, names: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, which loads `names[name]` (a submodule such
    as "elgamal", or a relative path such as "..nostr.adverts") when `name` is first used, then
    keeps the value in the package so later look-ups skip the hook."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        relative = module if module.startswith(".") else "." + module
        value = getattr(importlib.import_module(relative, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
