"""The `p2ptarot` command: an argparse dispatcher over one module per subcommand."""
