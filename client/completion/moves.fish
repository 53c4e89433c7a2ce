
# `turnpost move ID <TAB>` completes the game's legal moves, asked from the server by
# `turnpost __complete-moves` (which prints nothing on any failure and gives up after 2 s).
complete -c turnpost -n "__fish_turnpost_using_subcommand move" -f -a '(turnpost __complete-moves --current=(commandline -ct) -- (commandline -opc)[2..-1] 2>/dev/null)'
# `turnpost if ID MOVES… <TAB>`: the legal moves after the line typed so far.
complete -c turnpost -n "__fish_turnpost_using_subcommand if" -f -a '(turnpost __complete-moves --current=(commandline -ct) -- (commandline -opc)[2..-1] 2>/dev/null)'
