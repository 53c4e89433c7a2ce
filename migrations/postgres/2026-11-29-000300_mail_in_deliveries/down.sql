DROP TABLE mail_in_deliveries;
