#compdef hookctl
# zsh completion for hookctl.
#
# For this shell:       source <(hookctl completion zsh)    (after compinit)
# For every new shell:  hookctl completion zsh > "${fpath[1]}/_hookctl"
#                       (any folder on $fpath), then start a new shell.
#
# The candidates come from "hookctl __complete WORD...", which knows every
# command, flag, event, tool, template and format of the hookctl it runs.

_hookctl() {
    local prog=${words[1]}
    prog=${~prog}
    local -a lines values shown
    local line directive=
    lines=("${(@f)$("$prog" __complete "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
    for line in "${lines[@]}"; do
        case $line in
        :files) directive=files ;;
        :dirs) directive=dirs ;;
        "") ;;
        *$'\t'*)
            values+=("${line%%$'\t'*}")
            shown+=("${line%%$'\t'*}  -- ${line#*$'\t'}")
            ;;
        *)
            values+=("$line")
            shown+=("$line")
            ;;
        esac
    done
    if (( ${#values} )); then
        compadd -l -d shown -a values
    fi
    case $directive in
    files) _files ;;
    dirs) _files -/ ;;
    esac
}

# Sourced, register the function; autoloaded from $fpath, this file is the
# function's body, and completes.
if [[ ${zsh_eval_context[-1]} == file ]]; then
    compdef _hookctl hookctl
else
    _hookctl "$@"
fi
