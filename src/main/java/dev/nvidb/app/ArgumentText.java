package dev.nvidb.app;

import dev.nvidb.output.Printable;

/** Command-line arguments as the JVM decoded them: nvidb keeps them exactly or refuses them. */
public final class ArgumentText {

    private ArgumentText() {
    }

    /**
     * What is wrong with the first argument that is not text, or null: the JVM turns a byte it
     * cannot decode in the locale's charset into U+FFFD, so an argument holding one (or an
     * unpaired surrogate) would otherwise be stored and run with its bytes silently replaced.
     */
    public static String problem(String[] args) {
        for (int index = 0; index < args.length; index++) {
            String arg = args[index];
            for (int at = 0; at < arg.length(); at++) {
                char c = arg.charAt(at);
                boolean pairedHigh = Character.isHighSurrogate(c) && at + 1 < arg.length()
                        && Character.isLowSurrogate(arg.charAt(at + 1));
                if (pairedHigh) {
                    at++;
                } else if (c == '\uFFFD' || Character.isSurrogate(c)) {
                    String charset = System.getProperty("sun.jnu.encoding", "UTF-8");
                    return "argument " + (index + 1) + " ('" + Printable.of(arg.replace('\uFFFD', '?')) + "') is not valid "
                            + (charset.equalsIgnoreCase("UTF-8") ? "UTF-8"
                            : "UTF-8 here: this locale decodes arguments as " + charset);
                }
            }
        }
        return null;
    }
}
