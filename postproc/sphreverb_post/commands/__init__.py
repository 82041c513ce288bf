"""The tools of the command line: one module per subcommand (cli.COMMANDS)."""
