-- PostgreSQL's 0007 (see ../0007_outbox_posted.sql): when an announcement's channel message went out.
ALTER TABLE outbox ADD COLUMN posted_at DOUBLE PRECISION;
