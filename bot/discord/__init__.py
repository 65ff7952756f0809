"""The Discord adapter: the discord.py client, the ``/scrabble`` commands, buttons and forms, the
delivery of messages, the one error translator and the notifier the game service posts through.

Only this package imports discord.py; the game service (:mod:`bot.host`) knows nothing of it.
"""
