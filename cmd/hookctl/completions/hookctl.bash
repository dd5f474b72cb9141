# bash completion for hookctl.
#
# For this shell:       source <(hookctl completion bash)
# For every new shell:  hookctl completion bash > ~/.local/share/bash-completion/completions/hookctl
#                       (with the bash-completion package), or put the line above in ~/.bashrc.
#
# The candidates come from "hookctl __complete WORD...", which knows every
# command, flag, event, tool, template and format of the hookctl it runs.

_hookctl() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local line=${COMP_LINE:0:COMP_POINT}
    # Bash splits words at = and : (COMP_WORDBREAKS); put back together
    # the words that stand without a space between them, as hookctl sees
    # them: --color=al is one word.
    local -a args=()
    local i w rest trimmed pos=0
    for ((i = 0; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        rest=${line:pos}
        trimmed=${rest#"${rest%%[![:space:]]*}"}
        pos=$((pos + ${#rest} - ${#trimmed} + ${#w}))
        if ((i == 0)); then
            continue
        elif ((i > 1 && ${#rest} == ${#trimmed})); then
            args[${#args[@]}-1]+=$w
        else
            args+=("$w")
        fi
    done
    # What bash replaces is the part of the word after the last break.
    local word=${args[${#args[@]}-1]}
    local glued=${word%"$cur"}

    local prog=${COMP_WORDS[0]}
    [[ $prog == "~/"* ]] && prog=$HOME/${prog#"~/"}
    local out
    out=$("$prog" __complete "${args[@]}" 2>/dev/null) || return 0

    COMPREPLY=()
    local c files="" dirs=""
    while IFS= read -r c; do
        case $c in
        :files) files=1 ;;
        :dirs) dirs=1 ;;
        "") ;;
        *)
            c=${c%%$'\t'*}
            COMPREPLY+=("${c#"$glued"}")
            ;;
        esac
    done <<<"$out"
    if [[ -n $files || -n $dirs ]]; then
        local IFS=$'\n'
        if [[ -n $files ]]; then
            COMPREPLY+=($(compgen -f -- "$cur"))
        else
            COMPREPLY+=($(compgen -d -- "$cur"))
        fi
        type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
    fi
    return 0
}

complete -F _hookctl hookctl
