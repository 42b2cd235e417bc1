package dev.nvidb.queue;

import dev.nvidb.error.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code #nvidb --gpus=2} lines at the top of a {@code --script} file: options of
 * {@code job submit}, read before the first line that is neither blank nor a comment. The
 * command line wins over them. Several options may share a line ({@code #nvidb --gpus=2
 * --vram=20G}); a value has no spaces.
 */
public final class ScriptDirectives {

    /** The options a directive may give. */
    public static final List<String> KNOWN = List.of("--name", "--gpus", "--vram", "--node", "--workdir", "--priority",
            "--timeout", "--retries", "--retry-oom", "--group", "--key", "--array", "--tag", "--env");

    private static final String PREFIX = "#nvidb";

    /** One directive: the option, its value, and the file's line it came from. */
    public record Directive(String option, String value, int line) {
    }

    private ScriptDirectives() {
    }

    /** The directives of {@code script}; a usage error naming {@code file} and the line for a bad one. */
    public static List<Directive> parse(String script, String file) {
        List<Directive> directives = new ArrayList<>();
        String[] lines = script.split("\n", -1);
        for (int at = 0; at < lines.length; at++) {
            String line = lines[at].strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("#")) {
                break;
            }
            if (!line.startsWith(PREFIX) || line.length() > PREFIX.length()
                    && !Character.isWhitespace(line.charAt(PREFIX.length()))) {
                continue;
            }
            String[] words = line.substring(PREFIX.length()).strip().split("\\s+");
            for (int i = 0; i < words.length; i++) {
                String word = words[i];
                if (word.isEmpty()) {
                    throw bad(file, at + 1, "#nvidb with no option", null);
                }
                String option = word;
                String value;
                int equals = word.indexOf('=');
                if (equals > 0) {
                    option = word.substring(0, equals);
                    value = word.substring(equals + 1);
                } else if (i + 1 < words.length && !words[i + 1].startsWith("--")) {
                    value = words[++i];
                } else {
                    throw bad(file, at + 1, option + " needs a value", "write it as #nvidb " + option + "=VALUE");
                }
                if (!KNOWN.contains(option)) {
                    throw bad(file, at + 1, "unknown directive " + option, "a directive is one of "
                            + String.join(", ", KNOWN) + ", as #nvidb --gpus=2");
                }
                directives.add(new Directive(option, value, at + 1));
            }
        }
        return directives;
    }

    /** Takes one directive's value for its option; may fail as the option's own parsing would. */
    public interface Setter {
        void set(String option, String value) throws Exception;
    }

    /**
     * Gives {@code set} each directive of {@code script} whose option the command line did not
     * give ({@code given}: it wins); a value {@code set} refuses is a usage error naming the file and line.
     */
    public static void apply(String script, String file, Predicate<String> given, Setter set) {
        for (Directive directive : parse(script, file)) {
            if (given.test(directive.option())) {
                continue;
            }
            try {
                set.set(directive.option(), directive.value());
            } catch (NumberFormatException e) {
                throw bad(file, directive.line(), directive.option() + " " + directive.value() + " is not a whole number", null);
            } catch (UsageException e) {
                throw bad(file, directive.line(), e.getMessage(), e.hint().orElse(null));
            } catch (Exception e) {
                throw bad(file, directive.line(), directive.option() + " " + directive.value() + ": " + e.getMessage(), null);
            }
        }
    }

    private static UsageException bad(String file, int line, String what, String hint) {
        return new UsageException("--script " + file + " line " + line + ": " + what,
                hint != null ? hint : "fix the #nvidb line or give the option on the command line instead");
    }
}
