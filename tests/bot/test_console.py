"""The console front end driven through its input/output seam: the real game service, store, lexicon,
AI workers and hints, with scripted players."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from bot.config import Config
from bot.console.terminal import Terminal
from bot.games.scrabble.console.app import GUILD
from bot.games.scrabble.console.cli import parse_args, play
from bot.games.scrabble.console.commands import Command, CommandError, Verb, parse_command
from bot.host.store import Store
from scrabble_core import variant as variant_module
from scrabble_core.gcg import parse_gcg, replay
from scrabble_core.lexicon import Lexicon
from scrabble_core.variant import example_variant_names, example_variants_dir, get_variant

Player = Callable[[str, str], str]
"""A scripted player: the answer to a prompt, given the prompt and everything shown so far."""

_HINT = re.compile(
    r"^1\. (?P<word>\S+) at (?P<square>\S+) \((?P<direction>across|down)\)[^:\n]*: \d+ points?", re.MULTILINE
)
"""A hint's best play, in words: ``1. GRAZeD at 8D (across), with a blank for the E: 38 points``."""
_PLAYED = r"\S+ at \S+ \((?:across|down)\)(?:, with [^\n]+)? for \d+"
"""A play as the channel says it, after the player's name: ``GRAZED at 8D (across) for 38``."""
_MAX_LINES = 600


class Script:
    """A terminal whose input comes from a scripted player; records everything shown."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.shown: list[str] = []
        self.prompts: list[str] = []

    @property
    def output(self) -> str:
        return "".join(self.shown)

    def terminal(self) -> Terminal:
        return Terminal(self.read, self.shown.append)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert len(self.prompts) < _MAX_LINES, "the game does not end"
        self.shown.append(prompt)
        line = self.player(prompt, self.output)
        self.shown.append(f"{line}\n")
        return line


def lines(*typed: str) -> Player:
    """A player who types ``typed`` in order, then ends the input."""
    queue = list(typed)

    def player(prompt: str, output: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return player


def hint_player(then: Iterable[str] = ()) -> Player:
    """A player who asks for a hint on each turn and plays its best move (passes without one), then
    types ``then`` once the first play is made (if given, stops after them)."""
    after = list(then)
    played = False

    def player(prompt: str, output: str) -> str:
        nonlocal played
        if not prompt.endswith("]> "):
            return ""
        if played and after:
            return after.pop(0)
        if played and then:
            raise EOFError
        last = output.rsplit("]> ", 2)
        if len(last) < 3 or not last[-2].startswith("hint"):
            return "hint"
        match = _HINT.search(last[-2])
        played = True
        return f"play {typed(match)}" if match else "pass"

    return player


def typed(hint: re.Match[str]) -> str:
    """A hint's play (:data:`_HINT`) as a player types it: the square, then the word with a blank as
    ``?`` before its letter (on an infinite board, the signed square and the direction first)."""
    word = "".join(f"?{letter.upper()}" if letter.islower() else letter for letter in hint["word"])
    if "," in hint["square"]:
        return f"{hint['square']} {hint['direction']} {word}"
    return f"{hint['square']} {word}"


@pytest.fixture
def cache(enable_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lexicon caches of the session (the AI workers inherit the environment)."""
    assert enable_lexicon.trie_path is not None
    monkeypatch.setenv("SCRABBLE_CACHE_DIR", str(enable_lexicon.trie_path.parent))


async def run(db: Path, player: Player, *options: str) -> tuple[int, Script]:
    script = Script(player)
    """Run the console on ``db``; a new game is seeded and its AI greedy unless the options are
    ``--resume``, ``--list`` or none."""
    new_game = bool(options) and "--resume" not in options and "--list" not in options
    game = ["--seed", "1", "--level", "greedy"] if new_game else []
    args = parse_args(["--db", str(db), *game, *options])
    code = await play(args, Config(), script.terminal())
    return code, script


async def open_games(db: Path) -> int:
    store = await Store.open(db)
    try:
        return sum(row.guild_id == GUILD for row in await store.open_games())
    finally:
        await store.close()


@pytest.mark.usefixtures("cache")
async def test_a_full_game_against_the_ai(tmp_path: Path, enable_lexicon: Lexicon) -> None:
    db = tmp_path / "console.sqlite3"
    code, script = await run(db, hint_player(), "--players", "Ann", "--hints", "100")
    output = script.output
    assert code == 0
    assert "Game over: " in output
    assert "The final board:" in output
    for discord in ("<@", "<#", "/scrabble", "Join", "button", "DM"):
        assert discord not in output  # the lobby's and the channel's wording are Discord's
    assert "attached" not in output  # Discord's wording: the console says where the file is
    records = list(tmp_path.glob("game-*.gcg"))
    assert len(records) == 1
    assert f"The record is saved in {records[0]}" in output
    replayed = replay(parse_gcg(records[0].read_text()), get_variant("standard"), enable_lexicon)
    assert len(replayed) > 10
    assert re.search(rf"^Ann played {_PLAYED}", output, re.MULTILINE)
    assert re.search(rf"^AI played {_PLAYED}", output, re.MULTILINE)
    assert await open_games(db) == 0


@pytest.mark.usefixtures("cache")
async def test_bad_input_shows_the_error_and_changes_nothing(tmp_path: Path) -> None:
    code, script = await run(
        tmp_path / "c.sqlite3",
        lines(
            "8H ZORGADE",
            "play 8H GRAZED 12",
            "exchange QQQ",
            "play",
            "pass now",
            "frobnicate",
            "x" * 5000,
            "H8 ZZ",
            "play 8H GRAZED 12",
            "export",
            "history",
            "quit",
        ),
        "--players",
        "Ann",
    )
    output = script.output
    assert code == 0
    for error in (
        "ZORGADE is not in the dictionary",
        "you don't have three Qs on your rack",
        "play needs the move, e.g. play 8H QUIZ",
        "pass takes nothing after it",
        "Unknown command 'frobnicate'",
        f"Unknown command '{'x' * 39}…': type a move",
        "you don't have Z on your rack",
        "write a play as a coordinate and a word",
        "export needs a file name",
    ):
        assert error in output
    assert "No move yet." in output
    assert max(len(line) for line in output.splitlines() if not line.startswith("Ann [")) < 200
    assert set(script.prompts) == {"Ann [ADEGORZ]> "}


@pytest.mark.usefixtures("cache")
async def test_quit_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    code, script = await run(db, hint_player(then=["quit"]), "--players", "Ann")
    assert code == 0
    assert "The game is saved: continue it with scrabble-bot play --resume 1" in script.output
    first = re.search(r"^Ann played (\S+ at \S+ \((?:across|down)\)) for (\d+)", script.output, re.MULTILINE)
    assert first is not None
    assert await open_games(db) == 1

    record = tmp_path / "so-far.gcg"
    image = tmp_path / "board.png"
    code, script = await run(db, lines("history", f"export {record}", f"image {image}", "quit"), "--resume")
    assert code == 0
    assert "Game 1: Ann vs AI (greedy)" in script.output
    assert f"1. Ann played {first.group(1)} for {first.group(2)}" in script.output
    assert re.search(r"^2\. AI played", script.output, re.MULTILINE)
    assert parse_gcg(record.read_text()).players
    assert image.read_bytes().startswith(b"\x89PNG")

    code, script = await run(db, lines("new one", "n", "quit"))
    assert code == 0
    assert "Answer y or n (Enter: y)." in script.output
    asked, again = script.prompts[:2]  # an unclear answer is asked again
    assert asked == again and asked.endswith("). Continue it? [Y/n] ")
    assert (
        "An unfinished game is saved: game 1 (Ann vs AI (greedy), standard board, move 3: Ann "
        in script.output
    )
    assert (
        "Starting a new game. Still saved (scrabble-bot play --resume ID):\n  Game 1: Ann vs AI"
        in script.output
    )
    assert "Game 2:" in script.output
    assert await open_games(db) == 2


@pytest.mark.usefixtures("cache")
async def test_options_with_a_game_saved_start_the_new_game(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    code, script = await run(db, hint_player(then=["quit"]), "--players", "Ann")
    assert code == 0

    code, script = await run(db, lines("", "quit"), "--variant", "super", "--players", "Ann,Bob")
    assert code == 0
    output = script.output
    assert "Continue it?" not in output
    assert re.search(
        r"^  Game 1: Ann vs AI \(greedy\), standard board, move 3: Ann \d+, AI \d+$", output, re.MULTILINE
    )
    assert "Game 2: Ann vs Bob. Super board" in output
    assert script.prompts[0] == "Pass the keyboard to Ann and press Enter... "
    first_turn = output.split("]> ")[0]
    assert "Ann 0   Bob 0   | bag: 186" in first_turn  # the first turn's board, before the first prompt
    assert await open_games(db) == 2


@pytest.mark.usefixtures("cache")
async def test_list_and_resume_any_saved_game(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    await run(db, lines("quit"), "--players", "Ann")
    await run(db, lines("", "quit"), "--players", "Cy,Di", "--variant", "super")

    code, script = await run(db, lines(), "--list")
    assert code == 0
    assert [line for line in script.output.splitlines() if not line.startswith("Preparing")] == [
        "Game 1: Ann vs AI (greedy), standard board, move 1: Ann 0, AI 0",
        "Game 2: Cy vs Di, super board, move 1: Cy 0, Di 0",
    ]

    code, script = await run(db, lines("pass", "quit"), "--resume", "1")
    assert code == 0
    assert "Game 1: Ann vs AI (greedy). Standard board" in script.output
    assert script.prompts[0] == "Ann [ADEGORZ]> "

    code, script = await run(db, lines(), "--list")
    assert script.output.splitlines()[-1].startswith("Game 1: ")  # played last

    code, script = await run(db, lines(), "--resume", "7")
    assert code == 2
    assert script.output.endswith("No unfinished game has the id 7 (saved: 2, 1); scrabble-bot play --list\n")


@pytest.mark.parametrize(
    "options", [["--resume", "--players", "Ann"], ["--resume", "2", "--variant", "super", "--seed", "4"]]
)
def test_resume_takes_no_game_options(options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(options)
    assert exited.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith(
        "scrabble-bot play: error: --resume continues a saved game with its own options: drop --"
    )


@pytest.mark.usefixtures("cache")
async def one_play_on(db: Path, variant: str) -> tuple[int, Script]:
    """A new game of Ann against the AI on ``variant``: Ann plays her best hint, asks for the board
    and quits."""
    return await run(db, hint_player(then=["board", "quit"]), "--players", "Ann", "--variant", variant)


async def test_a_variant_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(variant_module.VARIANTS, "_added", {})
    standard = (variant_module.assets_dir() / "variants" / "standard.toml").read_text()
    board = tmp_path / "my board.toml"
    board.write_text(standard.replace('name = "standard"', 'name = "homemade"'))
    code, script = await one_play_on(tmp_path / "c.sqlite3", str(board))
    assert code == 0
    assert "Game 1: Ann vs AI (greedy). Homemade board" in script.output
    assert re.search(rf"^Ann played {_PLAYED}", script.output, re.MULTILINE)

    code, script = await run(tmp_path / "c.sqlite3", lines(), "--list")
    assert "\nGame 1: Ann vs AI (greedy), homemade board, move 3" in f"\n{script.output}"

    monkeypatch.setattr(variant_module.VARIANTS, "_added", {})  # as in a new process
    code, script = await run(tmp_path / "c.sqlite3", lines("check cat", "quit"), "--resume")
    assert "Game 1: Ann vs AI (greedy). Homemade board" in script.output
    assert "CAT is in ENABLE." in script.output


@pytest.mark.usefixtures("cache")
@pytest.mark.parametrize("name", example_variant_names())
async def test_every_example_variant_file_plays(name: str, tmp_path: Path) -> None:
    """``--variant FILE.toml`` with each example: a play each way, the board shown after it."""
    code, script = await one_play_on(tmp_path / "c.sqlite3", str(example_variants_dir() / f"{name}.toml"))
    output = script.output
    assert code == 0
    players = r"(Ann vs AI \(greedy\)|AI \(greedy\) vs Ann)"
    assert re.search(rf"^Game 1: {players}\. {name.capitalize()} board", output, re.MULTILINE)
    assert re.search(rf"^Ann played {_PLAYED}", output, re.MULTILINE)
    assert re.search(rf"^AI played {_PLAYED}", output, re.MULTILINE)
    header = r"^ +-?\d+ +-?\d+ " if name == "infinite" else r"^ +A +B "
    columns = re.findall(header, output, re.MULTILINE)
    assert len(columns) >= 6  # the board before the first play, after the AI's and on asking, each framed


@pytest.mark.usefixtures("cache")
async def test_an_infinite_board_takes_signed_coordinates_at_the_prompt(tmp_path: Path) -> None:
    """The hint's play (``FOLDS at -4,0 (across)``) typed with no direction, refused with the notation
    named, then typed as ``(-4, 0) a folds``; the example chosen by name."""

    def player(prompt: str, output: str) -> str:
        if "Ann played" in output:
            raise EOFError
        found = re.findall(r"^1\. ([A-Z]+) at (-?\d+),(-?\d+) \((across|down)\):", output, re.MULTILINE)
        if not found:
            return "hint"
        word, x, y, direction = found[-1]
        if "names no direction" not in output:
            return f"{x},{y} {word}"
        return f"({x}, {y}) {direction[0]} {word.lower()}"

    code, script = await run(tmp_path / "c.sqlite3", player, "--players", "Ann", "--variant", "infinite")
    output = script.output
    assert code == 0
    assert "names no direction: add across or down, e.g." in output
    assert re.search(r"^Ann played [A-Z]+ at -?\d+,-?\d+ \((?:across|down)\) for \d+", output, re.MULTILINE)


@pytest.mark.parametrize(
    ("line", "move"),
    [
        ("-3,5 across QUIZ", "-3,5 across QUIZ"),
        ("(2, -1) down quiz", "(2, -1) down quiz"),
        ("0,0d QUIZ", "0,0d QUIZ"),
        ("+4 ,0 a QU[1E]Z", "+4 ,0 a QU[1E]Z"),
        ("8H QUIZ", "8H QUIZ"),
        ("play -3,5 across QUIZ", "-3,5 across QUIZ"),
    ],
)
def test_a_line_that_starts_with_a_coordinate_is_a_play(line: str, move: str) -> None:
    assert parse_command(line) == Command(Verb.PLAY, move)


@pytest.mark.parametrize(
    ("variant", "error"),
    [
        ("nowhere.toml", "nowhere.toml: (file): no such file"),
        (
            "bogus" * 100,
            "--variant: no variant 'bogusbogusbogusbogusbogusbogusbogusbogu…': choose one of standard, super, diamond, "
            "infinite, letter-sets, standard-program, or give a variant file (FILE.toml)",
        ),
    ],
)
def test_a_variant_that_is_neither_bundled_nor_a_file(
    variant: str,
    error: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        parse_args(["--variant", variant])
    assert error in capsys.readouterr().err


def test_a_broken_variant_file_is_refused_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "broken"\n[board]\n')
    with pytest.raises(SystemExit):
        parse_args(["--variant", str(broken)])
    assert f"--variant: {broken}: " in capsys.readouterr().err


@pytest.mark.usefixtures("cache")
async def test_resume_without_a_game(tmp_path: Path) -> None:
    code, script = await run(tmp_path / "c.sqlite3", lines(), "--resume")
    assert code == 2
    assert "There is no unfinished game to resume" in script.output


@pytest.mark.usefixtures("cache")
async def test_hot_seat_shows_a_rack_only_to_its_player(tmp_path: Path) -> None:
    code, script = await run(
        tmp_path / "c.sqlite3",
        lines("", "pass", "", "export x.gcg", "pass", "", "quit"),
        "--players",
        "Ann,Bob",
    )
    assert code == 0
    turns = script.output.split("Pass the keyboard to ")[1:]
    assert [turn.split(" ", 1)[0] for turn in turns] == ["Ann", "Bob", "Ann"]
    for turn in turns:
        name = turn.split(" ", 1)[0]
        prompts = re.findall(r"^(\w+) \[(\w*)\]> ", turn, re.MULTILINE)
        assert prompts and {who for who, _ in prompts} == {name}
        racks = re.findall(r"^Your rack in this game: (\S+)$", turn, re.MULTILINE)
        assert racks == [prompts[0][1]]
    assert "a hot-seat game writes it when it ends" in script.output
    assert "AI" not in script.output


async def test_names_with_chat_markup_are_shown_as_they_are(tmp_path: Path) -> None:
    code, script = await run(
        tmp_path / "c.sqlite3", lines("", "pass", "", "pass", "", "quit"), "--players", "ann_b,*Bo*"
    )
    assert code == 0
    assert "Pass the keyboard to ann_b" in script.output
    assert "Pass the keyboard to *Bo*" in script.output
    assert "ann_b passed" in script.output
    assert "\\" not in script.output


@pytest.mark.usefixtures("cache")
async def test_hot_seat_challenge_takes_the_phony_back(tmp_path: Path) -> None:
    code, script = await run(
        tmp_path / "c.sqlite3",
        lines("", "8H SLORF", "", "challenge", "8G WAX", "", "quit"),
        "--players",
        "Ann,Bob",
        "--challenge",
        "double",
        "--seed",
        "3",
    )
    assert code == 0
    output = script.output
    assert "The challenge was upheld: Ann's play came off the board (-24)." in output
    last_turn = output.rsplit("Pass the keyboard to ", 1)[1]
    assert last_turn.startswith("Ann")
    assert re.findall(r"^Your rack in this game: (\S+)$", last_turn, re.MULTILINE) == ["DFLOQRS"]


def test_an_option_the_service_refuses_is_reported_without_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.console",
            "--hints",
            "500",
            "--ascii",
            "--db",
            str(tmp_path / "c.sqlite3"),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "scrabble-bot play: The number of hints must be between 0 and 100"
    )
    assert "Traceback" not in result.stderr


def test_an_unknown_command_is_cut_once_escaped() -> None:
    with pytest.raises(CommandError) as info:
        parse_command("\u202e" * 600_002)
    assert str(info.value) == (
        "Unknown command '" + "\\u202e" * 6 + "…': type a move such as 8H QUIZ, or help for the commands"
    )
