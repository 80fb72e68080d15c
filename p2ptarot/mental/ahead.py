"""A seat's shuffle, computed ahead: while the seat checks its predecessor's shuffle, a worker
thread already re-encrypts and proves its own shuffle of that (not yet checked) output.

Why: in the shuffle chain each seat must check the previous shuffle (about 0.1 s of group
operations for a 78-card deck) and then make its own (about 0.08 s); done one after the other,
both lie on the chain's critical path at every hand-off. Done at once, the hand-off costs the
longer of the two. libsodium runs without the GIL (``crypto/sodium.py``), so the two overlap on
two cores, or share one as two processes would.

Safety: nothing computed ahead is signed or sent before the check passes; `DeckEpoch` keeps the
work beside the operation and hands it to `make` only for the very input list that passed. A
bad predecessor is convicted by the same check as before, and the work is dropped. The bytes are
the same kind as always: the same permutation and factors drawn from the seat's randomness, in
the same order, on the caller's thread; only where the multiplications run changes.

Off unless a peer switches it on (:func:`enable`): a process replaying or checking a transcript
(or a test driving seats from one seeded stream) keeps the draws exactly where they were.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future

from p2ptarot.crypto.elgamal import Ciphertext, reencrypt
from p2ptarot.crypto.group import Point, Scalar
from p2ptarot.crypto.shuffle import ShuffleProof, prove_shuffle

Shuffled = tuple[list[Ciphertext], ShuffleProof]
"""This seat's output deck and the proof that it is a shuffle of the input."""

_enabled = False


def enable(on: bool = True) -> None:
    """Let this process's seats compute their next shuffle while checking the previous one
    (a peer playing at a table switches it on)."""
    global _enabled
    _enabled = on


def enabled() -> bool:
    return _enabled


def shuffle_and_prove(stage: list[Ciphertext], perm: list[int], rands: list[Scalar], H: Point,
                      context: bytes, *, on_thread: bool = False) -> Future[Shuffled]:
    """``out[i] = reencrypt(stage[perm[i]], H, rands[i])`` and its proof, here or on a daemon
    thread (`on_thread`); the result, or the exception, is in the returned future."""
    done: Future[Shuffled] = Future()

    def run() -> None:
        try:
            out = [reencrypt(stage[perm[i]], H, rands[i]) for i in range(len(stage))]
            done.set_result((out, prove_shuffle(stage, out, perm, rands, H, context)))
        except BaseException as exc:  # handed to whoever takes the result
            done.set_exception(exc)

    if on_thread:
        threading.Thread(target=run, name="shuffle-ahead", daemon=True).start()
    else:
        run()
    return done
