"""``python -m bot.console [OPTIONS]``: the same as ``scrabble-bot play [OPTIONS]``."""

import sys

from bot.console import main

if __name__ == "__main__":
    sys.exit(main())
