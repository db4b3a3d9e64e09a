"""``python -m rulecraft``: the same as the ``rulecraft`` command."""

from rulecraft.cli import app

app(prog_name="rulecraft")
