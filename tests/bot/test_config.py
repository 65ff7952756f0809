"""Loading the bot's configuration: defaults, the example file and a file of the layout before each game had
a table of its own, each registered game's settings, errors naming the key, the token."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, TimeoutAction, TurnConfig, load_config
from bot.games.go.settings import GoSettings
from bot.games.scrabble.settings import ScrabbleSettings, scrabble_settings
from scrabble_core.ai import Level
from scrabble_core.game import ChallengeMode
from scrabble_core.variant import assets_dir

EXAMPLE = Path(__file__).parents[2] / "config.example.toml"
BEFORE_GAME_TABLES = Path(__file__).parent / "configs" / "before-game-tables.toml"
"""The example file as it was before each game had a table of its own (Scrabble's settings at the top, in
``[game]`` and in ``[ai]``)."""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_the_defaults() -> None:
    assert load_config(None, {}) == Config()


def test_the_example_documents_the_defaults() -> None:
    config = load_config(EXAMPLE, {})
    assert config == Config(database=EXAMPLE.parent / "scrabble.sqlite3")


def test_a_file_of_the_layout_before_game_tables_still_reads() -> None:
    config = load_config(BEFORE_GAME_TABLES, {})
    assert config == Config(database=BEFORE_GAME_TABLES.parent / "scrabble.sqlite3")
    assert scrabble_settings(config) == ScrabbleSettings()


def test_each_game_reads_its_own_table(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[ai]
turn_timeout = 2.5
[scrabble]
lexicon = "words.txt"
variant = "super"
challenge_mode = "double"
hints_per_player = 0
challenge_window_seconds = 30
ai_level = "hard"
expert_seconds = 2.0
expert_hints = true
[go]
engine = "builtin"
""",
    )
    scrabble = ScrabbleSettings(
        lexicon="words.txt",
        variant="super",
        challenge_mode=ChallengeMode.DOUBLE,
        hints_per_player=0,
        challenge_window_seconds=30,
        ai_level=Level.HARD,
        ai_expert_seconds=2.0,
        ai_expert_hints=True,
    )
    config = load_config(path, {})
    games = {"scrabble": scrabble, "go": GoSettings("builtin")}
    assert config == Config(database=tmp_path / "scrabble.sqlite3", ai_turn_timeout=2.5, games=games)
    assert config.settings("go") == GoSettings("builtin")
    assert Config().settings("go") == GoSettings("auto")


def test_every_setting_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
database = "/data/games.db"
lexicon = "words.txt"
log_level = "debug"
dev_guild_id = 1234
[game]
variant = "super"
challenge_mode = "double"
hints_per_player = 0
challenge_window_seconds = 30
[ai]
level = "hard"
turn_timeout = 2.5
expert_seconds = 2.0
expert_hints = true
workers = 3
[turn]
time_limit = 600
on_expiry = "forfeit"
reminder_left = 0.5
max_timeouts = 0
""",
    )
    scrabble = ScrabbleSettings(
        lexicon="words.txt",
        variant="super",
        challenge_mode=ChallengeMode.DOUBLE,
        hints_per_player=0,
        challenge_window_seconds=30,
        ai_level=Level.HARD,
        ai_expert_seconds=2.0,
        ai_expert_hints=True,
    )
    assert load_config(path, {}) == Config(
        database=Path("/data/games.db"),
        ai_turn_timeout=2.5,
        ai_workers=3,
        turn=TurnConfig(600, TimeoutAction.FORFEIT, 0.5, 0),
        dev_guild_id=1234,
        log_level="DEBUG",
        games={"scrabble": scrabble},
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 1", r"config\.toml: colour: unknown setting"),
        ("[game]\nvariants = 'standard'", r"game\.variants: unknown setting"),
        ("game = 3", r"game: must be a table"),
        (
            "[game]\nvariant = 'chess'",
            r"game\.variant: no variant 'chess' "
            r"\(known: standard, super, diamond, infinite, letter-sets, standard-program\)$",
        ),
        (
            "[game]\nvariant_files = 'a.toml'",
            r"game\.variant_files: must be a list of strings, not 'a.toml'$",
        ),
        (
            "[game]\nvariant_files = ['missing.toml']",
            r"game\.variant_files: .*missing\.toml: \(file\): no such file$",
        ),
        (
            "[game]\nchallenge_window_seconds = 601",
            r"game\.challenge_window_seconds: must be between 0 and 600",
        ),
        ("[game]\nchallenge_mode = 'triple'", r"game\.challenge_mode: must be one of void, single"),
        ("[game]\nhints_per_player = -1", r"game\.hints_per_player: must be between 0 and 100, not -1"),
        ("[game]\nhints_per_player = true", r"game\.hints_per_player: must be an integer, not True"),
        ("[ai]\nlevel = 'genius'", r"ai\.level: must be one of easy, medium, hard, greedy"),
        ("[ai]\nturn_timeout = 'fast'", r"ai\.turn_timeout: must be a number"),
        (
            "[ai]\nexpert_seconds = 12",
            r"ai\.expert_seconds: must be at most ai\.turn_timeout \(10\.0\), not 12\.0$",
        ),
        ("[ai]\nexpert_seconds = 0", r"ai\.expert_seconds: must be between 0\.1 and 600\.0, not 0$"),
        ("[ai]\nexpert_hints = 'yes'", r"ai\.expert_hints: must be true or false, not 'yes'$"),
        ("[ai]\nworkers = -1", r"ai\.workers: must be between 0 and 64, not -1$"),
        ("[turn]\ntime_limit = 1.5", r"turn\.time_limit: must be an integer, not 1\.5"),
        ("[turn]\non_expiry = 'explode'", r"turn\.on_expiry: must be one of pass, forfeit"),
        ("[turn]\nreminder_left = 1.0", r"turn\.reminder_left: must be between 0\.0 and 0\.9"),
        ("log_level = 'LOUD'", r"log_level: must be one of DEBUG"),
        (
            "[scrabble]\nvariant = 'chess'",
            r"scrabble\.variant: no variant 'chess' "
            r"\(known: standard, super, diamond, infinite, letter-sets, standard-program\)$",
        ),
        ("[scrabble]\ncolour = 1", r"scrabble\.colour: unknown setting \(known: ai_level, challenge_mode,"),
        ("[scrabble]\nexpert_seconds = 12", r"scrabble\.expert_seconds: must be at most ai\.turn_timeout"),
        ("[go]\nengine = 'katago'", r"go\.engine: must be one of auto, gnugo, builtin, not 'katago'$"),
        ("go = 1", r"go: must be a table"),
        (
            "lexicon = 'a.txt'\n[scrabble]\nlexicon = 'b.txt'",
            r"config\.toml: lexicon: set twice: scrabble\.lexicon is the same setting$",
        ),
        (
            "[game]\nvariant = 'super'\n[scrabble]\nvariant = 'super'",
            r"game\.variant: set twice: scrabble\.variant is the same setting$",
        ),
        ("database = 5", r"database: must be a string, not 5"),
        ("dev_guild_id = -3", r"dev_guild_id: must be between 0"),
        ("token = = 1", r"config\.toml: not valid TOML"),
    ],
)
def test_bad_settings_are_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, text), {})


def test_expert_is_the_default_level_and_thinks_less_than_the_turn_timeout(tmp_path: Path) -> None:
    config = load_config(None, {})
    scrabble = scrabble_settings(config)
    assert (scrabble.ai_level, scrabble.ai_expert_seconds, config.ai_turn_timeout) == (
        Level.EXPERT,
        3.0,
        10.0,
    )
    assert scrabble.ai_expert_hints is False
    assert (config.ai_workers, config.ai_worker_count()) == (0, os.cpu_count())
    assert load_config(write(tmp_path, "[ai]\nworkers = 2"), {}).ai_worker_count() == 2
    short = load_config(write(tmp_path, "[ai]\nturn_timeout = 1.5"), {})
    assert (short.ai_turn_timeout, scrabble_settings(short).ai_expert_seconds) == (
        1.5,
        1.5,
    )  # cut to the timeout


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path / "nope.toml", {})


def test_token_from_the_environment_wins_and_is_never_shown(tmp_path: Path) -> None:
    path = write(tmp_path, 'token = "from-file-secret"')
    assert load_config(path, {}).token == "from-file-secret"
    config = load_config(path, {"DISCORD_TOKEN": " env-secret "})
    assert config.token == "env-secret"
    assert "secret" not in repr(config)
    assert load_config(None, {}).token is None


def test_relative_database_is_beside_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'database = "db/games.sqlite3"')
    assert load_config(path, {}).database == tmp_path / "db" / "games.sqlite3"
    assert load_config(path, {}).log_level_number == 20


def test_variant_files_add_variants_named_in_them(tmp_path: Path) -> None:
    standard = (assets_dir() / "variants" / "standard.toml").read_text(encoding="utf-8")
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "club.toml").write_text(standard.replace('name = "standard"', 'name = "club"'))
    path = write(tmp_path, '[game]\nvariant = "club"\nvariant_files = ["boards/club.toml"]\n')
    config = load_config(path, {})
    assert scrabble_settings(config).variant_files == (tmp_path / "boards" / "club.toml",)
    assert scrabble_settings(config).variant == "club"
    taken = write(tmp_path, f'[game]\nvariant_files = ["{assets_dir() / "variants" / "super.toml"}"]\n')
    with pytest.raises(
        ConfigError, match=r"game\.variant_files: .*super\.toml: name: a variant is already named 'super'$"
    ):
        load_config(taken, {})


def test_the_web_servers_allowed_hosts(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, '[web]\nallowed_hosts = ["Scrabble.LAN", "10.0.0.2", "::1", "*"]\n'), {}
    )
    assert config.web.allowed_hosts == ("scrabble.lan", "10.0.0.2", "::1", "*")
    assert load_config(None, {}).web.allowed_hosts == ()
    for bad in ("scrabble.lan:8765", "http://scrabble.lan", "a b", ""):
        with pytest.raises(
            ConfigError, match=r"^.*web\.allowed_hosts: .* is not a host name or address \(no port\)$"
        ):
            load_config(write(tmp_path, f"[web]\nallowed_hosts = [{bad!r}]\n"), {})


ACTIVITY = '[web]\nenabled = true\n[activity]\nclient_id = "900000000000000001"\n'


def test_the_activitys_client_id_and_secret(tmp_path: Path) -> None:
    assert load_config(None, {}).activity is None
    config = load_config(write(tmp_path, ACTIVITY + 'client_secret = "from-the-file"\n'), {})
    assert config.activity is not None
    assert (config.activity.client_id, config.activity.client_secret) == (900000000000000001, "from-the-file")
    assert config.activity.api == "https://discord.com/api/v10"
    assert config.activity.proxy_host == "900000000000000001.discordsays.com"
    assert "from-the-file" not in repr(config)
    from_env = load_config(write(tmp_path, ACTIVITY), {"DISCORD_CLIENT_SECRET": " from-the-env "})
    assert from_env.activity is not None and from_env.activity.client_secret == "from-the-env"


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        (
            ACTIVITY,
            r"activity\.client_secret: must be set \(or \$DISCORD_CLIENT_SECRET\) with activity\.client_id",
        ),
        (
            '[activity]\nclient_secret = "s"\n',
            r"activity\.client_id: must be set with activity\.client_secret",
        ),
        (
            '[web]\nenabled = true\n[activity]\nclient_id = "my-app"\nclient_secret = "s"\n',
            r"activity\.client_id: must be the application's id \(its digits, from the portal\)",
        ),
        (
            '[activity]\nclient_id = "900000000000000001"\nclient_secret = "s"\n',
            r"activity\.client_id: the Activity is the web board's page: set web\.enabled = true",
        ),
        (
            '[activity]\nclient_ids = "1"\n',
            r"activity\.client_ids: unknown setting \(known: client_id, client_secret\)",
        ),
    ],
)
def test_a_wrong_activity_setting_is_refused(tmp_path: Path, text: str, refusal: str) -> None:
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(tmp_path))}/config\.toml: {refusal}$"):
        load_config(write(tmp_path, text), {})
