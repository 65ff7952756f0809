"""The host: everything a game needs that is not the game itself, written once for every game and
knowing nothing of any (nor of Discord). Each game is a plugin (:class:`~bot.host.plugin.GamePlugin`)
registered in :mod:`~bot.host.registry`; ``docs/architecture.md`` draws the whole picture.

Modules: :mod:`~bot.host.runner` (the host: the open games and their locks, the one path every change
takes, announcements and their delivery, timers, AI turns, recovery, results),
:mod:`~bot.host.plugin` (the interface a game implements), :mod:`~bot.host.registry` (the games it
knows), :mod:`~bot.host.setup` and :mod:`~bot.host.assembly` (building a host and what it runs on),
:mod:`~bot.host.commands` (what every game's commands share), :mod:`~bot.host.table` (an open game in
memory), :mod:`~bot.host.store` (the database), :mod:`~bot.host.outbox` and :mod:`~bot.host.delivery`
(announcements that survive a crash, and each channel's deliveries), :mod:`~bot.host.tasks` (timers and
AI turns as tasks), :mod:`~bot.host.locks`, :mod:`~bot.host.seeds`, :mod:`~bot.host.seats`,
:mod:`~bot.host.messages` (what goes out, as plain data), :mod:`~bot.host.errors` (its refusals),
:mod:`~bot.host.storage` (store failures as refusals, retries), :mod:`~bot.host.options` (reading a new
game's options), :mod:`~bot.host.rating_model` and :mod:`~bot.host.ratings` (ratings of any game),
:mod:`~bot.host.features` (what a guild can turn off), :mod:`~bot.host.ai` (AI workers: the bot's own
pool and the PostgreSQL queue, one job protocol), :mod:`~bot.host.drawing` (the image drawer),
:mod:`~bot.host.listeners` (live observers: the web board), :mod:`~bot.host.links` (the web board's
links), :mod:`~bot.host.shards` and :mod:`~bot.host.leases` (sharded processes),
:mod:`~bot.host.protocols` (what it needs from outside: notifier, clock), :mod:`~bot.host.text`,
:mod:`~bot.host.migrate_db`.
"""
