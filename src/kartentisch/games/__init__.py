"""The games: one package each, all on the protocol in ``kartentisch.core``."""
