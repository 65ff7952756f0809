-- PostgreSQL's 0006 (see ../0006_shard_leases.sql): shard leases (issue 14), one row per shard held by
-- a sharded bot process, renewed while it runs and taken over once it lapses.

CREATE TABLE shard_leases (
    shard       INTEGER NOT NULL PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    holder      TEXT    NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL
);
