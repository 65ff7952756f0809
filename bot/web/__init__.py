"""The web board: the bot's own web server, a live board page over websockets, and the open protocol
(``docs/protocol.md``) that the page and bot programs speak.

Modules: :mod:`~bot.web.server` (HTTP and the websocket), :mod:`~bot.web.hub` (live connections and
events), :mod:`~bot.web.commands` (client commands to the game service), :mod:`~bot.web.state` (what a
connection may see), :mod:`~bot.web.links` (signed tokens), :mod:`~bot.web.tiles` (plays from placed
tiles), :mod:`~bot.web.activity` (the Discord Activity's sign-in), :mod:`~bot.web.errors` (error codes),
:mod:`~bot.web.local` (a game host without Discord) and :mod:`~bot.web.cli` (``scrabble-bot web`` and
``arena``). The page itself is ``static/`` (``/game``; inside Discord, ``/``, with ``static/activity.js`` and
Discord's SDK built by ``sdk/``).
"""
