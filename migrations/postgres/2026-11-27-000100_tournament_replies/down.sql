DROP TABLE inbound_tournament_mail;
