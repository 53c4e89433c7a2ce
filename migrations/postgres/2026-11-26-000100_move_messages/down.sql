DROP TABLE message_person_mutes;
DROP TABLE message_game_mutes;
DROP TABLE move_messages;
