-- Every kind of game in the same rows, with nothing in the schema naming a kind: the games table is made
-- again without the CHECK on its kind, with the version of the codec that wrote its options and state
-- (format) and, once finished, its result (who it rates and in which places: JSON, NULL until known;
-- the host computes the results of the games finished before this migration at its next start). The
-- stats of every kind are one table, keyed by kind. Every row is kept as it was.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE games_before AS SELECT * FROM games;
DROP TABLE games;
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,  -- the game's plugin (bot/host/registry.py)
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options     TEXT    NOT NULL,  -- JSON: the plugin's options
    seed        INTEGER NOT NULL,
    state       TEXT,              -- JSON: the plugin's state; NULL in the lobby
    format      INTEGER NOT NULL DEFAULT 1,  -- the version of the plugin's codec that wrote them
    deadline    REAL,
    reminded    INTEGER NOT NULL DEFAULT 0,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    quarantined TEXT,
    result      TEXT               -- JSON: [{player, name, place}...] once finished; NULL until known
);
INSERT INTO games (id, kind, guild_id, channel_id, creator_id, status, options, seed, state, deadline,
                   reminded, created_at, updated_at, quarantined)
    SELECT id, kind, guild_id, channel_id, creator_id, status, options, seed, state, deadline, reminded,
           created_at, updated_at, quarantined
    FROM games_before ORDER BY id;
DROP TABLE games_before;
CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND quarantined IS NULL;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_kind ON games (kind, status);

CREATE TABLE stats_of_kinds (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    total_score INTEGER NOT NULL DEFAULT 0,
    best_score  INTEGER,
    best_move   TEXT,
    PRIMARY KEY (guild_id, kind, user_id)
);
INSERT INTO stats_of_kinds (guild_id, kind, user_id, name, games, wins, draws, total_score, best_score, best_move)
    SELECT guild_id, 'scrabble', user_id, name, games, wins, 0, total_score, best_score, best_move FROM stats;
INSERT INTO stats_of_kinds (guild_id, kind, user_id, name, games, wins, draws)
    SELECT guild_id, kind, user_id, name, games, wins, draws FROM kind_stats;
DROP TABLE stats;
DROP TABLE kind_stats;
ALTER TABLE stats_of_kinds RENAME TO stats;
