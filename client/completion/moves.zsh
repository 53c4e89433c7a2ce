# `turnpost move ID <TAB>` completes the game's legal moves (and `turnpost if ID MOVES… <TAB>`
# the legal moves after the line typed so far), asked from the server by
# `turnpost __complete-moves` (which prints nothing on any failure and gives up after 2 s).
# Everything else is completed by _turnpost above.
_turnpost_moves() {
    if (( CURRENT > 2 && (${${(@)words[2,CURRENT-1]}[(Ie)move]} || ${${(@)words[2,CURRENT-1]}[(Ie)if]}) )); then
        local -a moves
        moves=(${(f)"$(${words[1]} __complete-moves --current "$PREFIX" -- "${(@)words[2,CURRENT-1]}" 2>/dev/null)"})
        if (( ${#moves} )); then
            compadd -- "${moves[@]}"
            return 0
        fi
    fi
    _turnpost "$@"
}

if [ "$funcstack[1]" = "_turnpost" ]; then
    # Autoloaded from $fpath: later completions go straight to _turnpost_moves.
    compdef _turnpost_moves turnpost
    _turnpost_moves "$@"
else
    compdef _turnpost_moves turnpost
fi
