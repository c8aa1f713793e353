"""Keep the catalogues in step with the code: ``python -m kartentisch.locale.update``.

Collects every literal passed to ``_()`` or ``ngettext()`` under ``src/kartentisch`` (with
babel's extractor) and merges them into each language's ``.po`` file: new messages are
added untranslated, translations of unchanged messages are kept, messages no longer used
are dropped. Then translate the new entries in ``de/LC_MESSAGES/kartentisch.po``.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Final

from kartentisch.locale import DOMAIN, LANGUAGES, catalogue_path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
_FIXED_DATE: Final = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
"""Header dates stay fixed so that regenerating a catalogue gives no spurious diff."""
_HEADER: Final[dict[str, Any]] = {"project": "kartentisch", "version": "0.1",
                  "copyright_holder": "the kartentisch authors",
                  "last_translator": "the kartentisch authors",
                  "language_team": "the kartentisch authors",
                  "creation_date": _FIXED_DATE, "revision_date": _FIXED_DATE}


def extract_messages(root: Path = PACKAGE_DIR) -> list[str | tuple[str, str]]:
    """Every message id used in the code under ``root``, in order of first use.

    Plural messages come as ``(singular, plural)``.
    """
    from babel.messages.extract import extract_from_dir

    found: list[str | tuple[str, str]] = []
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords=KEYWORDS):
        key = message if isinstance(message, str) else (message[0], message[1])
        if key not in found:
            found.append(key)
    return found


def template(root: Path = PACKAGE_DIR) -> Any:
    """A babel ``Catalog`` holding every message id, untranslated."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(domain=DOMAIN, fuzzy=False, **_HEADER)
    for message in extract_messages(root):
        catalog.add(message)
    return catalog


def update_catalogues(root: Path = PACKAGE_DIR) -> None:
    """Merge the code's messages into every language's ``.po`` file."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    fresh = template(root)
    for language in LANGUAGES:
        path = catalogue_path(language)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=language, domain=DOMAIN)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=DOMAIN, fuzzy=False, **_HEADER)
        catalog.update(fresh, no_fuzzy_matching=True)
        catalog.fuzzy = False
        for key, value in _HEADER.items():
            setattr(catalog, key, value)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, ignore_obsolete=True, include_lineno=False,
                     omit_header=False)


if __name__ == "__main__":
    update_catalogues()
