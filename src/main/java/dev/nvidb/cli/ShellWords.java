package dev.nvidb.cli;

import dev.nvidb.agent.ShellQuote;
import java.util.List;

/** Joins command words typed after {@code --} back into one shell command line ({@link ShellQuote}). */
final class ShellWords {

    private ShellWords() {
    }

    static String join(List<String> words) {
        return ShellQuote.join(words);
    }
}
