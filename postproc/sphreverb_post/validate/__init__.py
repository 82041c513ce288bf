"""The validation checks: one module per case of docs/validation.md (cli.CASES)."""
