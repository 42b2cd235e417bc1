package dev.nvidb.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nvidb completion bash|zsh}: a completion script for every command and option,
 * generated from the command tree itself (zsh runs the bash script through bashcompinit).
 */
@Command(name = "completion", description = "Print a shell completion script (bash or zsh).",
        footerHeading = "%nExamples:%n",
        footer = {"  source <(nvidb completion bash)            # bash, e.g. in ~/.bashrc",
                "  source <(nvidb completion zsh)             # zsh, e.g. in ~/.zshrc",
                "  nvidb completion bash > /etc/bash_completion.d/nvidb"})
final class CompletionCommand extends ContextCall {

    /** The shells a script is printed for. */
    enum Shell { bash, zsh }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Override
    public Integer call() {
        String script = AutoComplete.bash("nvidb", spec.commandLine().getParent());
        if (shell == Shell.zsh) {
            // The script loads bashcompinit itself when it runs under zsh.
            script = script.replaceFirst("^#!/usr/bin/env bash\n", "#compdef nvidb\n# nvidb completion for zsh"
                    + " (bash completion through bashcompinit)\n");
        }
        context.out().print(script);
        context.out().flush();
        return ExitCodes.ok();
    }
}
