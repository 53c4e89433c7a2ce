-- Play links (the "play in your browser" link of each turn card) are signed over the account's
-- link generation: revoking any of the account's API tokens increments it, so every play link
-- and play cookie issued before stops working at once.
ALTER TABLE accounts ADD COLUMN link_generation INTEGER NOT NULL DEFAULT 0;
