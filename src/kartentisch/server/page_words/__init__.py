"""Every message the browser page shows, listed for the catalogue's extractor.

The page's JavaScript cannot be scanned by babel, so each message id its scripts use in
``t("...")``, ``N("...")`` or ``tn("...", "...")`` is written here once with ``N_()`` or
``ngettext()``; ``python -m kartentisch.locale.update`` then extracts it into the catalogue.
One module per part of the page keeps additions apart; nothing here is called at run time.
``tests/browser/test_catalogue.py`` fails when a message of the scripts is missing here or has
no German translation.
"""
