-- Shard leases (issue 14): when the bot runs as several sharded processes on one database, each holds
-- a lease on each of its shards (see bot/host/leases.py), renewed while it runs. A process may not take a
-- shard whose lease another holder keeps renewing; a lease that lapses (its process died) is taken over.

CREATE TABLE shard_leases (
    shard       INTEGER NOT NULL PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    holder      TEXT    NOT NULL,  -- who holds it: host, pid and a random tag (see bot/host/leases.py)
    expires_at  REAL    NOT NULL   -- Unix time at which it lapses unless renewed
);
