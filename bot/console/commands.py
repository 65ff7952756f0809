"""What a player types at a console's prompt, read into a :class:`Command`: one reader for every game's
console, each game giving its :class:`Grammar` (its commands, their aliases, which take an argument,
and which lines are a move in its notation).

A line is an empty line (nothing), a move (the game's :attr:`Grammar.move` says so: ``8H QUIZ`` in
Scrabble, ``D4`` in Go), or a command word with its argument; the moves themselves are read by the
game's engine when they are played, so their errors are the engine's.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Generic, TypeVar

from bot.host.errors import ServiceError
from bot.host.messages import shorten

ECHO_LENGTH: Final = 40
"""The most characters of what the player typed that an error repeats."""

V = TypeVar("V", bound=enum.StrEnum)


class CommandError(ServiceError):
    """A line that is not a command, or a command without the argument it needs (or with one it does
    not take)."""


@dataclass(frozen=True, slots=True)
class Command(Generic[V]):
    """A command and its argument as typed (``""`` when it has none)."""

    verb: V
    argument: str = ""


@dataclass(frozen=True, slots=True)
class Grammar(Generic[V]):
    """A console's commands: ``verbs`` (each command's word), ``arguments`` (the commands that need an
    argument, with what to type), ``aliases`` (other words for a command), ``unknown`` (the message
    for a word that is no command) and ``move``: given a line's first word and the rest, the command a
    move is (``None``: the line is not a move), or raising the engine's error for a move it cannot
    read."""

    verbs: type[V]
    arguments: Mapping[V, str]
    unknown: Callable[[str], str]
    move: Callable[[str, str], Command[V] | None]
    aliases: Mapping[str, V] = field(default_factory=dict)

    def verb(self, word: str) -> V:
        """The command ``word`` names (any case).

        Raises:
            CommandError: none.
        """
        found = self.aliases.get(word.lower())
        if found is not None:
            return found
        try:
            return self.verbs(word.lower())
        except ValueError:
            raise CommandError(self.unknown(word)) from None


def parse_command(line: str, grammar: Grammar[V]) -> Command[V] | None:
    """Read a line typed at the prompt; ``None`` for an empty line.

    Raises:
        CommandError: an unknown command, a missing argument or an argument a command does not take;
            the engine's error for a move it cannot read.
    """
    text = line.strip()
    if not text:
        return None
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    move = grammar.move(word, rest)
    if move is not None:
        return move
    verb = grammar.verb(word)
    if verb in grammar.arguments and not rest:
        raise CommandError(f"{verb} needs {grammar.arguments[verb]}")
    if verb not in grammar.arguments and rest:
        raise CommandError(f"{verb} takes nothing after it (type help for the commands)")
    return Command(verb, rest)


def cut(text: str, limit: int = ECHO_LENGTH) -> str:
    """``text`` as the console echoes input: :func:`~bot.host.messages.shorten` to ``limit`` characters."""
    return shorten(text, limit)
