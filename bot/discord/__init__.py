"""The Discord adapter, the same for every game: the discord.py client (it loads each registered game's
Discord part: its commands, buttons and forms), the generic button, the command plumbing, the delivery
of messages, the one error translator and the notifier the host posts through.

Only this package and the games' ``discord`` parts import discord.py; the host (:mod:`bot.host`) and the
games' commands know nothing of it.
"""
