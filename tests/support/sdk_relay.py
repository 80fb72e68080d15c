"""A second NOSTR relay implementation for the online tests: rust-nostr's `LocalRelay` (the
`nostr-sdk` Python bindings), with limits of its own, unlike the `nostr-relay` package's:
events whose content is over ``--max-content`` characters are refused (``blocked: …``, through a
write policy: the relay's own prefix), events per minute and subscriptions per connection are limited (its `RateLimit`),
it keeps events in memory, serves no NIP-11 document, and answers each refused event by its id.

Run as a process (inside a rig namespace): ``python sdk_relay.py --host H --port P``; it prints
``ready ws://H:P`` once listening and runs until SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

import nostr_sdk


class ContentCap(nostr_sdk.WritePolicy):
    """Refuse events whose content is longer than ``cap`` characters (and, with
    ``no_ephemeral``, every ephemeral event).  The relay words every refusal of a write policy
    ``blocked: <reason>``: a client takes it as "this relay will not carry us"."""

    def __init__(self, cap: int, no_ephemeral: bool) -> None:
        super().__init__()
        self.cap, self.no_ephemeral = cap, no_ephemeral

    async def admit_event(self, event: nostr_sdk.Event,
                          socket_addr: str) -> nostr_sdk.WritePolicyResult:
        kind = event.kind().as_u16()
        if self.no_ephemeral and 20000 <= kind < 30000:
            return nostr_sdk.WritePolicyResult.REJECT(
                f"ephemeral events (kind {kind}) are not accepted here")
        if len(event.content()) > self.cap:
            return nostr_sdk.WritePolicyResult.REJECT(
                f"content longer than {self.cap} characters")
        return nostr_sdk.WritePolicyResult.ACCEPT()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-content", type=int, default=8192)
    parser.add_argument("--notes-per-minute", type=int, default=1200)
    parser.add_argument("--max-reqs", type=int, default=32)
    parser.add_argument("--no-ephemeral", action="store_true")
    args = parser.parse_args()
    # the write policy is a Python coroutine the relay's own threads call: it runs on this loop
    nostr_sdk.uniffi_set_event_loop(asyncio.get_running_loop())
    builder = (nostr_sdk.LocalRelayBuilder().addr(args.host).port(args.port)
               .rate_limit(nostr_sdk.RateLimit(max_reqs=args.max_reqs,
                                               notes_per_minute=args.notes_per_minute))
               .write_policy(ContentCap(args.max_content, args.no_ephemeral)))
    relay = builder.build()
    await relay.run()
    print(f"ready {await relay.url()}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await relay.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
