"""Validators the test relay (`nostr-relay`) loads by dotted path, for relays with policies of
real ones: `refuses_ephemeral` turns away every ephemeral event (kinds 20000-29999), as a relay
that only stores does ("blocked: …", nostr-rs-relay's wording for a kind it does not take).
The relay process finds this module through PYTHONPATH (`online_servers.start_relay`)."""

from __future__ import annotations

from nostr_relay.errors import StorageError


def refuses_ephemeral(event, config) -> None:  # noqa: ANN001 - nostr-relay's validator signature
    if 20000 <= event.kind < 30000:
        raise StorageError(f"blocked: ephemeral events (kind {event.kind}) are not accepted here")
