"""The ``kartentisch`` command line: play in the terminal, replay records, simulate bots.

The commands live in :mod:`kartentisch.cli.main` (a typer app); the game loop with a human
player in :mod:`kartentisch.cli.session`; how one game looks on the screen in a *presenter*
(:mod:`kartentisch.cli.presenters`). Rules code never prints: everything shown here is built
from observations and events redacted for the viewer.
"""
