"""Go in the host, around the pure engine :mod:`go_core`: ``scrabble-bot go`` in the terminal
(:mod:`~bot.go.cli`, :mod:`~bot.go.console`, :mod:`~bot.go.text_board`, :mod:`~bot.go.saves`), the GTP
server ``scrabble-bot go --gtp`` (:mod:`~bot.go.gtp`), the AIs (:mod:`~bot.go.ai`: GNU Go over
:mod:`~bot.go.gtp_client`, or the built-in one) and SGF records (:mod:`~bot.go.sgf`).
"""
