"""The arrays of 64-bit words that the games log what happened in.

Why a module: each game keeps its log as an ``array`` of unsigned 64-bit words, and the
fastest type code for that depends on the platform. CPython 3.11 converts an int of two or
more 30-bit digits to C ``unsigned long long`` (type code ``"Q"``) through its general
byte-array routine, about 500 instructions per append, and to ``unsigned long`` (``"L"``) by
a short loop; ``unsigned long`` has 64 bits on Linux and macOS but 32 on Windows. So logs
are made with :data:`WORD_TYPE`, and pickled as ``"Q"`` (:func:`portable`), which loads on
every platform (:func:`native`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Final

WORD_TYPE: Final = "L" if array("L").itemsize == 8 else "Q"
"""``"L"`` where C ``unsigned long`` has 64 bits, else ``"Q"``."""


def new_words() -> array[int]:
    """An empty log of 64-bit words, of the platform's fastest type."""
    return array(WORD_TYPE)


def portable(words: array[int]) -> array[int]:
    """``words`` as ``array("Q")``, the same on every platform (for pickles)."""
    return array("Q", words)


def native(words: Iterable[int]) -> array[int]:
    """``words`` (a pickled log, of either type, or any ints below 2**64) as a log of
    :data:`WORD_TYPE`."""
    return array(WORD_TYPE, words)
