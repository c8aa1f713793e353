"""Seeds, derived seeds and shuffles: the one source of randomness for every game.

Nothing here depends on CPython's ``random`` algorithms, so a seed deals the same cards on
every platform and Python version. Everything is a function of a seed and a few labels:

- :func:`derive_seed` gives independent seeds for parts of a whole (a game of an arena, a
  bot's seat) from one master seed;
- :func:`random_words` is a stream of uniform 64-bit words (SHAKE-128, an extendable-output
  hash, so the words are uniform and independent);
- :func:`shuffled` sorts items by such words: a uniform shuffle that runs in C and keeps no
  generator state.

Seeds are whole numbers from 0 to :data:`SEED_MAX` (2^53 - 1), so that they travel through
JSON exactly, browsers included. :func:`check_seed` is the one validation of a seed.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence
from typing import Final, TypeVar

from kartentisch.core.errors import InvalidSeedError, safe_repr

T = TypeVar("T")

SEED_MAX: Final = 2**53 - 1
"""The largest seed: every seed is a whole number from 0 to this (JSON-safe everywhere)."""


def check_seed(seed: object) -> int:
    """``seed`` if it is a valid seed; raises :class:`InvalidSeedError` otherwise.

    >>> check_seed(7)
    7
    >>> check_seed(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kartentisch.core.errors.InvalidSeedError: the seed -1 is not a whole number from 0 to ...
    """
    if type(seed) is not int or not 0 <= seed <= SEED_MAX:
        raise InvalidSeedError(
            f"the seed {safe_repr(seed)} is not a whole number from 0 to {SEED_MAX}",
            params={"value": safe_repr(seed), "last": SEED_MAX},
        )
    return seed


def _key(seed: int, labels: Sequence[object]) -> bytes:
    return "/".join(str(p) for p in (seed, *labels)).encode()


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for the part of a whole named by ``labels``, from the master ``seed``.

    >>> derive_seed(7, "game", 1) == derive_seed(7, "game", 1) != derive_seed(7, "game", 2)
    True
    >>> 0 <= derive_seed(7, "bot", 3) <= SEED_MAX
    True
    """
    digest = hashlib.blake2b(_key(seed, labels), digest_size=8, person=b"kt-seed").digest()
    return int.from_bytes(digest, "little") & SEED_MAX


def random_words(seed: int, labels: Sequence[object], count: int) -> array[int]:
    """``count`` uniform 64-bit words determined by ``seed`` and ``labels`` alone.

    >>> list(random_words(1, ("x",), 2)) == list(random_words(1, ("x",), 3))[:2]
    True
    """
    words = array("Q", hashlib.shake_128(_key(seed, labels)).digest(8 * count))
    if sys.byteorder == "big":
        words.byteswap()  # the bytes are read as little-endian everywhere
    return words


def shuffled(items: Sequence[T], seed: int, *labels: object) -> list[T]:
    """``items`` in a uniformly random order determined by ``seed`` and ``labels``.

    Each item gets a 64-bit word and the items are sorted by it; ties (probability below
    1e-16 for a deck) keep the items' order.

    >>> sorted(shuffled(range(10), 3, "deal", 0)) == list(range(10))
    True
    >>> shuffled("abcdef", 3, "deal", 0) == shuffled("abcdef", 3, "deal", 0)
    True
    """
    keys = random_words(seed, labels, len(items))
    order = sorted(range(len(items)), key=keys.__getitem__)
    return [items[i] for i in order]
