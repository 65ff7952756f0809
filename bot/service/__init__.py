"""The game service that knows nothing of discord: see :mod:`bot.service.game_service`.

Modules: :mod:`~bot.service.game_service` (the service: one method per command),
:mod:`~bot.service.runner` (the open games and their locks, the one path every change takes, sending,
timers and AI turns), :mod:`~bot.service.options` (a new game's options and their checks),
:mod:`~bot.service.seats` (users and seat names), :mod:`~bot.service.table` (an open game in memory),
:mod:`~bot.service.actions` (the actions taken for AI and timed-out seats, and their seeds),
:mod:`~bot.service.records` (log entries, log lines and stats of a game's changes),
:mod:`~bot.service.announcements` (the messages the service sends on its own),
:mod:`~bot.service.tasks` (turn timers, AI turns and their work tasks), :mod:`~bot.service.errors`
(its refusals), :mod:`~bot.service.protocols` (what it needs from outside: notifier, AI, advisor,
renderer, clock), :mod:`~bot.service.text` (the wording of its messages), :mod:`~bot.service.advisor`
(hints from the move generator), :mod:`~bot.service.rating_model` (who a game rates and how ratings
move), :mod:`~bot.service.ratings` (ratings in the stats and leaderboard), :mod:`~bot.service.features`
(the features a guild can turn off).
"""
