"""The interface between the host and a game: :class:`GamePlugin`, which a game implements once, and the
plain data that crosses it.

The host (:mod:`bot.host.runner`) owns everything that is the same for every game: the channel locks,
the one path a change takes (commit, outbox, delivery, marks), saving with retries, timers, reminders
and expiry, AI turns, recovery after a restart, results and ratings, stats. It calls the plugin for
what only the game knows:

- its stored form: options and state to and from JSON (:meth:`~GamePlugin.options_to_json`...), with
  a version (:attr:`~GamePlugin.format`) so that a newer codec reads what an older one wrote;
- applying an action (:meth:`~GamePlugin.apply`): validate fully, and either raise a refusal (nothing
  changed) or return the :class:`Outcome` for the host to commit;
- whose move it is (:meth:`~GamePlugin.to_move`), the game's version (:meth:`~GamePlugin.version`),
  the turn's time limit and what running out of it does;
- the messages of a change: its announcement in the channel, the same as text once the game moved on,
  each seat's private view, the lobby;
- the AI's move (:meth:`~GamePlugin.ai_action`: the request to the AI workers and the fallback are the
  plugin's, the waiting, the notice and the lock the host's);
- the result of a finished game for the ratings (:meth:`~GamePlugin.result`) and its stats.

A game's commands (what its front ends call: new game, join, play...) are its own, written over the
host's primitives (:meth:`~bot.host.runner.Host.act`, :meth:`~bot.host.runner.Host.commit`...).
"""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from bot.host.messages import Message
from bot.host.rating_model import RatedSeat, human_key
from bot.host.seats import is_program
from bot.host.store.rows import GameRow, LogEntry, StatsDelta
from bot.host.table import Table

O = TypeVar("O")  # noqa: E741 (a game's options)
S = TypeVar("S")  # a game's state
A = TypeVar("A")  # a game's action
_T = TypeVar("_T")

Thinking = Callable[[Awaitable[_T]], Awaitable[_T]]
"""The host's wrapper of an AI's slow choice: what the choice gives, the channel told once if it takes
long (see :meth:`GamePlugin.ai_action`)."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a committed change still has to announce: stored in the outbox in the change's own
    transaction as ``data`` (the plugin's JSON, from which it rebuilds the messages with the stored
    game), marked sent once delivered. ``version`` is the game's version the change left it at;
    ``private`` the seats to send their private view (a rack) once the public message is out."""

    version: int
    data: Mapping[str, Any]
    private: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome(Generic[O, S]):
    """A change the plugin made and the host commits: the game as it is after it (its row's status,
    seats, deadline... already set by the plugin), the log entries it appends and what it announces.
    ``log_lines`` are written to the process's log once the change is committed; ``reply`` is what the
    action gave, for the command that made it to word its answer."""

    table: Table[O, S]
    log: Sequence[LogEntry]
    announcement: Announcement | None = None
    log_lines: Sequence[str] = field(default=())
    reply: Any = None


class GamePlugin(abc.ABC, Generic[O, S, A]):
    """A game as the host plays it. One instance per host; see the module's docstring for who does
    what. Its tables are of its own :class:`~bot.host.table.Table` subclass."""

    kind: ClassVar[str]
    """The game's name in the store (``games.kind``), in its buttons' ids and in the AI jobs:
    lowercase letters and dashes, never changed once games are stored."""
    title: ClassVar[str]
    """The game's name as players read it (``Scrabble``)."""
    format: ClassVar[int] = 1
    """The version of the codec that writes the options and state; a row of an older format is read
    by :meth:`restore` (``row.format``)."""
    post_part: ClassVar[str] = "state"
    """The name of an announcement's public message among the posts of its outbox entry (its key:
    :func:`bot.host.outbox.post_key`)."""
    no_game: ClassVar[str]
    """What a command of this game is told in a channel without one of its games."""
    board_links: ClassVar[bool] = False
    """Whether its messages carry the web board's links (when the bot serves the board)."""
    refusals: ClassVar[tuple[type[Exception], ...]] = ()
    """The game's own errors whose message is for the player (its engine's), besides the host's
    :class:`~bot.host.errors.ServiceError`."""

    # Stored form --------------------------------------------------------------------------------

    @abc.abstractmethod
    def restore(self, row: GameRow) -> Table[O, S]:
        """The table of a stored game (its options and state read by the codec of ``row.format``).

        Raises:
            Exception: the row cannot be read (the host quarantines an open game that cannot be).
        """

    @abc.abstractmethod
    def encode(self, table: Table[O, S]) -> GameRow:
        """``table``'s row with its options and state written as the plugin's JSON (of
        :attr:`format`)."""

    # Reading a game -----------------------------------------------------------------------------

    @abc.abstractmethod
    def version(self, table: Table[O, S]) -> int:
        """The started game's version: it changes with every change of the game. Buttons carry it (an
        action made for another version is refused), announcements are compared to it."""

    def turn_key(self, table: Table[O, S]) -> tuple[int, ...]:
        """What identifies the current turn for the timers and the AI (by default the version)."""
        return (self.version(table),)

    @abc.abstractmethod
    def to_move(self, table: Table[O, S]) -> int | None:
        """The seat the game waits for (an AI plays it, a person's timer runs), or ``None`` (over, or
        waiting for no one in particular)."""

    def time_limit(self, table: Table[O, S]) -> int:
        """The seconds a person has for a turn (0: no limit): the reminder comes when
        ``reminder_left`` of it is left (see :class:`bot.config.TurnConfig`)."""
        return 0

    # Changes ------------------------------------------------------------------------------------

    @abc.abstractmethod
    async def apply(
        self, table: Table[O, S], seat: int | None, action: A, now: float, *, timed_out: bool = False
    ) -> Outcome[O, S]:
        """``action`` by ``seat`` (``None``: by no seat) on the started game ``table``: validate it
        fully, then return the changed game (never changing ``table``) with its log and announcement.
        ``timed_out``: the host applies :meth:`timeout_action` because the seat's time ran out.

        Raises:
            ServiceError or one of :attr:`refusals`: the action is refused (nothing changed).
        """

    @abc.abstractmethod
    def timeout_action(self, table: Table[O, S], seat: int) -> A:
        """What ``seat`` does when its turn's time runs out."""

    def reminder_text(self, user_id: int, seconds_left: int) -> str:
        """The reminder the person to move gets when little of the turn's time is left."""
        return f"<@{user_id}>, it is your turn: {seconds_left} seconds left."

    # AI -----------------------------------------------------------------------------------------

    async def ai_action(self, table: Table[O, S], seat: int, seed: int, thinking: Thinking[Any]) -> A:
        """The action of the AI playing ``seat`` (whose move it is) in ``table``, chosen outside the
        game's lock; ``seed`` (the host's :func:`~bot.host.seeds.turn_seed` of the turn) makes it the
        same on a re-run. A slow choice (the AI workers) is awaited through ``thinking``. Never raises
        for a slow or failing AI: the plugin's fallback answers.

        Raises:
            NotImplementedError: the game has no AI.
        """
        raise NotImplementedError(f"{self.title} has no AI")

    def ai_fallback(self, table: Table[O, S], seat: int) -> A:
        """What the AI does instead when the game refuses its action (a pass)."""
        raise NotImplementedError(f"{self.title} has no AI")

    # Messages -----------------------------------------------------------------------------------

    @abc.abstractmethod
    def read_announcement(self, data: Mapping[str, Any]) -> Announcement:
        """The announcement stored as ``data`` (its outbox entry).

        Raises:
            KeyError, TypeError, ValueError: it is not one.
        """

    @abc.abstractmethod
    async def announcement_message(
        self, table: Table[O, S], announcement: Announcement, *, urgent: bool = False
    ) -> Message:
        """The public message of ``announcement`` over the game as ``table`` holds it (images drawn
        ahead of the others waiting if ``urgent``)."""

    @abc.abstractmethod
    def past_message(self, table: Table[O, S], announcement: Announcement) -> Message:
        """``announcement`` as text alone, said before a newer announcement that shows the game (the
        game moved on before it went out)."""

    def answered(self, announcement: Announcement, seat: int) -> Announcement:
        """``announcement`` without ``seat``'s private view: the answer to the seat's own command shows
        it (by default the announcement as it is: a game without private views)."""
        return announcement

    async def private_message(self, table: Table[O, S], seat: int) -> Message:
        """What ``seat`` alone sees after an announcement that names it in ``private`` (by DM)."""
        raise NotImplementedError(f"{self.title} has no private view")

    def private_failed_message(self, table: Table[O, S], user_id: int) -> Message:
        """The public notice that ``user_id``'s private message could not be sent (never its content)."""
        raise NotImplementedError(f"{self.title} has no private view")

    # Results ------------------------------------------------------------------------------------

    @abc.abstractmethod
    def result(self, table: Table[O, S]) -> tuple[RatedSeat, ...]:
        """Who the finished game rates and in which places (1 first; equal places are ties); empty
        when it rates nobody (an unrated game)."""

    def stats(self, table: Table[O, S]) -> list[StatsDelta]:
        """What the finished game adds to its players' stats (by default a game, won, drawn or lost,
        for each person, from :meth:`result`'s places)."""
        places = {seat.player: seat.place for seat in self.result(table)}
        best = min(places.values(), default=0)
        shared = sum(1 for place in places.values() if place == best) > 1
        deltas = []
        for seat in table.row.seats:
            if seat.user_id is None or is_program(seat.user_id):
                continue
            place = places.get(human_key(seat.user_id))
            won = place == best and not shared
            deltas.append(
                StatsDelta(
                    table.row.guild_id, self.kind, seat.user_id, seat.name, won, place == best and shared
                )
            )
        return deltas
