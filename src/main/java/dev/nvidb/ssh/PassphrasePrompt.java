package dev.nvidb.ssh;

import java.util.Optional;

/**
 * Asks the user for a secret (a key passphrase or a password). The CLI backs it with
 * {@code System.console()}; an empty answer means there is no terminal to ask on.
 */
@FunctionalInterface
public interface PassphrasePrompt {

    /** Shows {@code prompt} and returns what the user typed, or empty when nobody can be asked. */
    Optional<char[]> ask(String prompt);

    /** A prompt for processes without a terminal: it never answers. */
    static PassphrasePrompt none() {
        return prompt -> Optional.empty();
    }
}
