DROP TABLE conditional_moves;
