"""One module per `muggins` subcommand (see device/cli.py)."""
