-- Announcements that survive a crash, and games set aside because they cannot be loaded.

-- What a committed change still has to announce, written in the change's own transaction; sent_at is
-- set once the announcement went out. The data is what rebuilds the messages (bot/host/outbox.py),
-- never the messages themselves.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    data        TEXT    NOT NULL,  -- JSON: the move number, events, opening lines and racks to DM
    created_at  REAL    NOT NULL,
    sent_at     REAL               -- NULL until delivered
);
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;

-- Why an open game could not be loaded (NULL for a sound game). A quarantined game keeps its row as it
-- was, is never loaded again, and no longer holds its channel.
ALTER TABLE games ADD COLUMN quarantined TEXT;

DROP INDEX games_open_per_channel;
CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND quarantined IS NULL;
