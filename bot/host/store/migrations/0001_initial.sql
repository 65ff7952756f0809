-- The first schema: games with their engine state, seats, an append-only event log and per-guild stats.
-- Times are UTC epoch seconds. JSON columns hold the data the service writes (see bot/host/store/games.py).

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options     TEXT    NOT NULL,  -- JSON: variant, challenge_mode, turn_seconds, hints, ai_level
    seed        INTEGER NOT NULL,
    state       TEXT,              -- JSON of scrabble_core.game.Game.to_dict(); NULL in the lobby
    deadline    REAL,              -- when the current human turn runs out; NULL without a timer
    reminded    INTEGER NOT NULL DEFAULT 0,  -- 1 once the current turn's reminder was sent
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- One open game (lobby or active) per channel.
CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,  -- turn order, from 0
    user_id     INTEGER,           -- NULL for an AI seat
    name        TEXT    NOT NULL,  -- the name the engine knows the seat by
    ai_level    TEXT,              -- NULL for a human seat
    hints_used  INTEGER NOT NULL DEFAULT 0,
    timeouts    INTEGER NOT NULL DEFAULT 0,  -- consecutive turn timeouts
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    at          REAL    NOT NULL,
    kind        TEXT    NOT NULL,  -- an engine EventKind, or a service event (created, joined, ...)
    seat        INTEGER,
    data        TEXT    NOT NULL   -- JSON
);
CREATE INDEX events_by_game ON events (game_id, id);

CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;

CREATE TABLE stats (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    total_score INTEGER NOT NULL DEFAULT 0,
    best_score  INTEGER,
    best_move   TEXT,
    PRIMARY KEY (guild_id, user_id)
);
