"""``python3 -m sphreverb_post SUBCOMMAND [ARGS]``: see cli.py."""
import sys

from sphreverb_post.cli import main

sys.exit(main())
