"""The game service that knows nothing of discord: see :mod:`bot.games.scrabble.commands`.

Modules: :mod:`~bot.games.scrabble.commands` (the service: one method per command),
:mod:`~bot.host.runner` (the open games and their locks, the one path every change takes, sending,
timers and AI turns), :mod:`~bot.games.scrabble.options` (a new game's options and their checks),
:mod:`~bot.host.seats` (users and seat names), :mod:`~bot.host.table` (an open game in memory),
:mod:`~bot.games.scrabble.actions` (the actions taken for AI and timed-out seats, and their seeds),
:mod:`~bot.games.scrabble.records` (log entries, log lines and stats of a game's changes),
:mod:`~bot.games.scrabble.announcements` (the messages the service sends on its own),
:mod:`~bot.host.tasks` (turn timers, AI turns and their work tasks), :mod:`~bot.host.errors`
(its refusals), :mod:`~bot.host.protocols` (what it needs from outside: notifier, AI, advisor,
renderer, clock), :mod:`~bot.games.scrabble.text` (the wording of its messages), :mod:`~bot.games.scrabble.advisor`
(hints from the move generator), :mod:`~bot.host.rating_model` (who a game rates and how ratings
move), :mod:`~bot.host.ratings` (ratings in the stats and leaderboard), :mod:`~bot.host.features`
(the features a guild can turn off).
"""
