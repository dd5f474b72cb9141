# fish completion for hookctl.
#
# For this shell:       hookctl completion fish | source
# For every new shell:  hookctl completion fish > ~/.config/fish/completions/hookctl.fish
#
# The candidates come from "hookctl __complete WORD...", which knows every
# command, flag, event, tool, template and format of the hookctl it runs.

function __hookctl_complete
    # -x is fish 4's name for -o.
    set -l tokens (commandline -xpc 2>/dev/null; or commandline -opc)
    set -l prog $tokens[1]
    set -e tokens[1]
    set -l cur (commandline -ct)
    for line in ($prog __complete $tokens "$cur" 2>/dev/null)
        switch $line
            case :files
                __fish_complete_path "$cur"
            case :dirs
                __fish_complete_directories "$cur"
            case '*'
                printf '%s\n' $line
        end
    end
end

complete -c hookctl -f -a '(__hookctl_complete)'
