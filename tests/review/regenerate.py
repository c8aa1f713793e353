"""``python -m tests.review.regenerate``: write the golden records and reviews anew."""

from __future__ import annotations

from tests.review.test_review import regenerate

if __name__ == "__main__":
    for name, summary in regenerate().items():
        print(name, summary)
