"""``python -m kartentisch.cli``: the same as the ``kartentisch`` command."""

from kartentisch.cli.main import app

app(prog_name="kartentisch")
