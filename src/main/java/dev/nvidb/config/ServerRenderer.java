package dev.nvidb.config;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Writes one {@link ServerConfig} as a YAML list item, omitting defaults and quoting every string. */
final class ServerRenderer {

    private final NvidbHome home;

    ServerRenderer(NvidbHome home) {
        this.home = home;
    }

    /**
     * The item's lines, the dash at column {@code dashColumn} and the keys {@code offset} columns
     * further right (2 for {@code "- "}).
     */
    List<String> lines(ServerConfig server, int dashColumn, int offset) {
        List<String> fields = new ArrayList<>();
        fields.add("hostname: " + quote(server.hostname()));
        if (server.port() != null) {
            fields.add("port: " + server.port());
        }
        optional(fields, "username", server.username());
        optional(fields, "nickname", server.nickname());
        if (server.auth() != AuthMethod.AUTO) {
            fields.add("auth: " + server.auth().key());
        }
        if (server.identityfile() != null) {
            fields.add("identityfile: " + quote(home.display(server.identityfile())));
        }
        optional(fields, "password", server.password());
        optional(fields, "proxyjump", server.proxyjump());
        if (server.gpus() != null) {
            fields.add("gpus: " + server.gpus().stream().map(String::valueOf)
                    .collect(Collectors.joining(", ", "[", "]")));
        }
        List<String> lines = new ArrayList<>();
        String dashPad = " ".repeat(dashColumn);
        String keyPad = " ".repeat(dashColumn + offset);
        lines.add(dashPad + "-" + " ".repeat(offset - 1) + fields.get(0));
        fields.subList(1, fields.size()).forEach(field -> lines.add(keyPad + field));
        return lines;
    }

    private static void optional(List<String> fields, String key, String value) {
        if (value != null) {
            fields.add(key + ": " + quote(value));
        }
    }

    /** A YAML double-quoted scalar: safe for any text, including ':', '#', quotes and newlines. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.append('"').toString();
    }
}
