"""The ``kartentisch`` command line: play in the terminal, replay records, simulate bots.

The commands live in :mod:`kartentisch.cli.main` (a typer app); the game loop with a human
player in :mod:`kartentisch.cli.session`; how one game looks on the screen in a *presenter*
(:mod:`kartentisch.cli.presenters`). Rules code never prints: everything shown here is built
from observations and events redacted for the viewer.

Usage::

    kartentisch play krass-kariert                     # you in seat 0, three heuristic bots
    kartentisch play krass-kariert --players 5 --seat 2 --bots heuristic,random,random,random \\
        -o five_player_chips=3 --seed 42 --save game.json --lang de
    kartentisch play krass-kariert --watch             # bots only, as a spectator
    kartentisch replay game.json --seat 2 --step       # as seat 2 saw it, Enter per move
    kartentisch simulate krass-kariert --games 1000 --bots heuristic,random,random,random \\
        --seed 1 --workers 2 [--json]
    kartentisch rules-options krass-kariert            # every rules option and its default
    kartentisch games                                  # games and their bots

Seats count from 0 (seat 0 deals); hand positions in the move notation count from 1.
During a game, ``?`` shows the notation and the legal moves, Enter alone shows the table
again, and ``quit`` or end of input (Ctrl-D) stops the game (the record is still saved).
The language is German when ``LC_ALL``/``LC_MESSAGES``/``LANG`` starts with ``de``, unless
``--lang`` says otherwise.
"""
