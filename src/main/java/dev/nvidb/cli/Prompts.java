package dev.nvidb.cli;

import dev.nvidb.error.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Questions a command asks a person: the question on stderr, the answer one line of stdin. Read
 * from the context's stdin rather than {@link java.io.Console}, so a test can answer by bytes;
 * on a terminal stdin is the terminal, in cooked mode, and Ctrl-C ends the process (130) with
 * nothing written. End of input (Ctrl-D) is no answer.
 */
final class Prompts {

    private final Context context;
    private BufferedReader reader;

    Prompts(Context context) {
        this.context = context;
    }

    /**
     * A usage error (exit 2) unless a person can be asked or {@code yes} stands in for them:
     * {@code what} names the command, in words a script's author can act on.
     */
    static void requireAnswerable(Context context, boolean yes, String what) {
        if (!yes && !context.terminal()) {
            throw new UsageException(what + " asks before deleting, and there is no terminal to ask on:"
                    + " pass --yes to delete without asking");
        }
    }

    /** The line typed after {@code prompt}, stripped; empty at the end of input. */
    Optional<String> line(String prompt) {
        context.err().print(prompt);
        context.err().flush();
        try {
            if (reader == null) {
                reader = new BufferedReader(new InputStreamReader(context.streams().in(), StandardCharsets.UTF_8));
            }
            String line = reader.readLine();
            if (line == null) {
                context.err().println();
                return Optional.empty();
            }
            return Optional.of(line.strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the answer from stdin", e);
        }
    }

    /** True only for {@code y} or {@code yes}: anything else, an empty line or the end of input is no. */
    boolean confirm(String question) {
        String answer = line(question + " [y/N] ").orElse("").toLowerCase(Locale.ROOT);
        return answer.equals("y") || answer.equals("yes");
    }

    /** True only when exactly {@code word} is typed. */
    boolean typed(String word) {
        return line("Type '" + word + "' to confirm: ").map(word::equals).orElse(false);
    }
}
