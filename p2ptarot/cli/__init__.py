"""The `p2ptarot` command: an argparse dispatcher over one module per subcommand.

The terminal front end (`Terminal`, `Console`) is loaded on first use (PEP 562): a bot peer,
which has no terminal, never imports it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_LAZY = {"Terminal": "front", "Console": "console"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from .console import Console
    from .front import Terminal
