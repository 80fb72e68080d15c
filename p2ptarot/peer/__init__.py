"""One player's peer: it drives a table over the links of `p2ptarot.net`.

`lobby` seats the players around the sans-I/O `table.room` and has the charter signed; `game`
plays the table around the sans-I/O `table.Session` (`frames` the peer's control frames, `heal`
links that heal, `catchup` re-sync, the abandonment rule); `watcher` feeds the application layer
(`p2ptarot.app`); `store` keeps the data directory; `bots` hosts a table with bot processes.
Submodules are imported by name: `store` alone stays cheap (no aiohttp, no pydantic) for commands
that only read a data directory.
"""
