"""The `p2ptarot` command: an argparse dispatcher over one module per subcommand.

The terminal front end (`Terminal`, `Console`) is loaded on first use (PEP 562): a bot peer,
which has no terminal, never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot._lazy import lazy_names

_LAZY = {"Terminal": "front", "Console": "console"}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


if TYPE_CHECKING:
    from .console import Console
    from .front import Terminal
