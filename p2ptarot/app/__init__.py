"""The peer application layer between the table runner and the front ends (terminal, browser).

Sans-I/O where it can be: `table.TableApp` turns what the session did into typed events
(`events`), `screen` builds what a front end draws from a view and the game's presenter,
`results` words finished rounds; `table.Hub` fans the events out and carries commands back.
Nothing is imported here: offline commands (`replay`) load only the pure modules they use.
"""
