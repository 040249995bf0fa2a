"""`python -m gemmtune` runs the CLI."""

from gemmtune.cli import run

run()
