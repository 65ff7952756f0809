"""The game service that knows nothing of discord: see :mod:`bot.service.game_service`.

Modules: :mod:`~bot.service.game_service` (the service), :mod:`~bot.service.errors` (its refusals),
:mod:`~bot.service.protocols` (what it needs from outside: notifier, AI, advisor, renderer, clock),
:mod:`~bot.service.text` (the wording of its messages).
"""
