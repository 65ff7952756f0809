-- Ratings (derived data: rebuilt from the finished games, see bot/host/store/games.py and bot/host/rating_model.py)
-- and per-guild feature toggles.

-- A rated player's current rating in a guild: a human ('user:<id>') or an AI level ('ai:<level>').
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,  -- rated games played
    PRIMARY KEY (guild_id, player)
);

-- One row per rated player of each rated game: the place it took (1 is first; ties share a place) and
-- its rating after the game. Games are rated in finish order: finished_at, then game_id.
CREATE TABLE rating_history (
    seq         INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    guild_id    INTEGER NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    place       INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    finished_at REAL    NOT NULL,
    UNIQUE (game_id, player)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, player, finished_at, game_id);
CREATE INDEX rating_history_by_time ON rating_history (guild_id, finished_at, game_id);

-- What the ratings were computed from: the model, and the finished games (their count and the last one
-- in finish order). A mismatch with the games table, or another model, rebuilds them at start-up.
CREATE TABLE rating_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    model       TEXT    NOT NULL,
    finished    INTEGER NOT NULL,
    last_game   INTEGER,
    last_at     REAL
);
INSERT INTO rating_state (id, model, finished) VALUES (1, '', 0);

-- A feature a guild turned off or on (no row: the default, on).
CREATE TABLE guild_features (
    guild_id    INTEGER NOT NULL,
    feature     TEXT    NOT NULL,
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (guild_id, feature)
);
