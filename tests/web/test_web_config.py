"""The ``[web]`` settings, the board server in the bot's process, and the link keys kept on disk."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest
from service_fakes import open_harness

from bot.config import Config, ConfigError, WebConfig, load_config
from bot.web.errors import ProtocolError
from bot.web.links import Grant, LinkSigner, Role
from bot.web.server import board_server


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_the_web_section(tmp_path: Path) -> None:
    assert load_config(None, {}).web == WebConfig()
    text = '[web]\nenabled = true\nhost = "0.0.0.0"\nport = 9000\npublic_url = "https://x.org/"\nsecret = "0123456789abcdef"\n'
    web = load_config(write(tmp_path, text), {}).web
    assert web == WebConfig(True, "0.0.0.0", 9000, "https://x.org", "0123456789abcdef")
    assert "0123456789abcdef" not in repr(web)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nenabled = 1\n", "web.enabled: must be true or false, not 1"),
        ('[web]\nsecret = "short"\n', "web.secret: must be at least 16 characters long"),
        ("[web]\nport = 70000\n", "web.port: must be between 0 and 65535, not 70000"),
        ("[web]\ncolour = 1\n", "web.colour: unknown setting"),
    ],
)
def test_bad_web_settings_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_config(write(tmp_path, text), {})


async def test_the_board_server_runs_only_when_enabled(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    try:
        async with board_server(Config(database=tmp_path / "db.sqlite3"), harness.games) as server:
            assert server is None
        config = Config(database=tmp_path / "db.sqlite3", web=WebConfig(enabled=True, port=0))
        async with board_server(config, harness.games) as server:
            assert server is not None and server.host == "127.0.0.1"
            url = f"http://127.0.0.1:{server.port}/healthz"
            async with aiohttp.ClientSession() as session, session.get(url) as response:
                assert await response.text() == "ok"
        assert (tmp_path / "db.sqlite3.links.json").is_file()
        config = Config(
            database=tmp_path / "db.sqlite3", web=WebConfig(True, port=0, public_url="https://x.org")
        )
        async with board_server(config, harness.games) as server:
            assert server is not None
            spectator = server.link(7)
            assert spectator == f"https://x.org/game#t={server.signer.token(7, Role.SPECTATOR)}"
            first = server.link(7, 1)
            renewed = server.link(7, 1, renew=True)
            assert renewed != first and renewed == server.link(7, 1)
            assert server.signer.verify(renewed.split("#t=")[1]) == Grant(7, Role.PLAYER, 1)
    finally:
        await harness.close()


def test_links_survive_a_restart_and_a_renewal_stays_final(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    signer = LinkSigner(path=path)
    old = signer.token(3, Role.PLAYER, 1)
    new = signer.renew(3, Role.PLAYER, 1)
    assert path.stat().st_mode & 0o777 == 0o600
    again = LinkSigner(path=path)
    assert again.verify(new) == Grant(3, Role.PLAYER, 1)
    with pytest.raises(ProtocolError, match="this link was renewed: use the newest one"):
        again.verify(old)
    spectator = again.token(3, Role.SPECTATOR)
    assert LinkSigner(path=path).verify(spectator) == Grant(3, Role.SPECTATOR, None)
    with pytest.raises(ProtocolError, match="this link is not valid"):
        LinkSigner(b"another secret, not this one").verify(spectator)


def test_a_configured_secret_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    signer = LinkSigner(b"configured-secret-123", path)
    signer.renew(1, Role.PLAYER, 0)
    signer.renew(1, Role.BOT, 0)  # a program's number has a generation of its own
    assert json.loads(path.read_text()) == {"generations": {"1.0": 1, "1.b0": 1}}
    assert LinkSigner(b"configured-secret-123", path).verify(signer.token(1, Role.BOT, 0)) == Grant(
        1, Role.BOT, 0
    )
