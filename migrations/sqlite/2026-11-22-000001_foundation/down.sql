DROP TABLE mail_outbox;
DROP TABLE sign_in_codes;
DROP TABLE api_tokens;
DROP TABLE accounts;
