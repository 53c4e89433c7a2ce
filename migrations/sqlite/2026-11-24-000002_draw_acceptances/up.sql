-- Draws by agreement in games of more than two seats: the seats (besides the one that made the
-- standing offer) that have accepted it, as seat numbers separated by spaces ("2 3"). The
-- draw is agreed once every seat still playing has accepted; NULL while no one has.
ALTER TABLE games ADD COLUMN draw_accepted_by TEXT;
