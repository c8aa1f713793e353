"""Research APIs: the games as PettingZoo, Gymnasium and OpenSpiel games, a batch stepper,
and the ``learned`` bot (an optional extra: ``pip install kartentisch[rl]``).

A leaf package: nothing else in kartentisch imports it (the bot registry names the learned
bot by a lazy ``"module:attr"`` string). Submodules import their third-party libraries
themselves, so ``kartentisch.rl.learned`` needs numpy only:

* :mod:`.encodings`: per game, the fixed-shape observation vector of one seat, the action
  tokens and mask, and action features; defined on ``state.observation(seat)``, with a
  tested bit-identical fast path that reads the same knowledge from the state's fields.
* :mod:`.pettingzoo_env`: ``env(game)``, an AEC environment (PettingZoo).
* :mod:`.gymnasium_env`: ``KartentischEnv``, one seat against registered bots (Gymnasium).
* :mod:`.batch`: ``BatchStepper``, many games stepped together with stacked numpy arrays.
* :mod:`.openspiel`: ``register_games()``, the games as OpenSpiel Python games.
* :mod:`.dmc`, :mod:`.learned`, :mod:`.train`: the Deep Monte-Carlo network, the bot
  playing with it (numpy), and its training script (PyTorch, the ``train`` extra).

See ``docs/research.md``.
"""
