
# `turnpost move ID <TAB>` completes the game's legal moves (and `turnpost if ID MOVES… <TAB>`
# the legal moves after the line typed so far), asked from the server by
# `turnpost __complete-moves` (which prints nothing on any failure and gives up after 2 s).
# Everything else is completed by _turnpost above.
_turnpost_moves() {
    # The line up to the cursor, split at blanks only: COMP_WORDS is also split at the `:` of
    # moves like F3:E4:E7.
    local line=${COMP_LINE:0:COMP_POINT} cur=
    local -a words
    IFS=$' \t\n' read -ra words <<<"$line"
    if [[ ${#words[@]} -gt 0 && $line != *[[:blank:]] ]]; then
        cur=${words[${#words[@]}-1]}
        unset 'words[${#words[@]}-1]'
    fi
    if [[ " ${words[*]:1} " == *" move "* || " ${words[*]:1} " == *" if "* ]]; then
        local move
        local -a moves=()
        while IFS= read -r move; do
            moves+=("$move")
        done < <("${words[0]}" __complete-moves --current "$cur" -- "${words[@]:1}" 2>/dev/null)
        if [[ ${#moves[@]} -gt 0 ]]; then
            # bash replaces only the part of the word after its last word-break character
            # (COMP_WORDBREAKS: `:` in F3:E4, `@` in R@d4, `=`): reply with what follows it.
            local i prefix=
            for ((i = ${#cur} - 1; i >= 0; i--)); do
                if [[ ${cur:i:1} != [[:blank:]] && $COMP_WORDBREAKS == *"${cur:i:1}"* ]]; then
                    prefix=${cur:0:i+1}
                    break
                fi
            done
            if [[ -n $prefix ]]; then
                moves=("${moves[@]#"$prefix"}")
            fi
            COMPREPLY=("${moves[@]}")
            return 0
        fi
    fi
    _turnpost "$@"
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _turnpost_moves -o nosort -o bashdefault -o default turnpost
else
    complete -F _turnpost_moves -o bashdefault -o default turnpost
fi
