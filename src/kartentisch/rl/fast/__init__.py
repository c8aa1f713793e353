"""The encodings' byte builders (:mod:`.kk_bytes`, :mod:`.k20_bytes`, :mod:`.casino_bytes`) and
the batch stepper's rows' core (:mod:`.rows`): plain typed code that the compiled core may
compile with mypyc (``kartentisch._native.COMPILED_MODULES``).

This package imports nothing, so that the compiled build depends only on these modules and
the game modules they read (an edit elsewhere in ``kartentisch.rl`` leaves a build current).
"""
