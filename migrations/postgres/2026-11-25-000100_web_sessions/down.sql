DROP INDEX sign_in_codes_link_hash;
ALTER TABLE sign_in_codes DROP COLUMN link_hash;
DROP TABLE browser_sessions;
