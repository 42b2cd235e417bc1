package dev.nvidb.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** A fake user home in a temp directory, with {@code ~/.nvidb} and an environment map pointing at it. */
record TempHome(Path userHome, Map<String, String> env) {

    static TempHome in(Path dir) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        return new TempHome(dir, env);
    }

    NvidbHome home() {
        return NvidbHome.fromEnvironment(env, "/nonexistent-user-home");
    }

    TempHome withEnv(String name, String value) {
        Map<String, String> copy = new HashMap<>(env);
        copy.put(name, value);
        return new TempHome(userHome, copy);
    }

    TempHome config(String yaml) {
        return write("config.yml", yaml);
    }

    TempHome queue(String yaml) {
        return write("queue.yml", yaml);
    }

    NvidbConfig load() {
        return new ConfigLoader(home(), env).load();
    }

    private TempHome write(String name, String yaml) {
        try {
            Files.createDirectories(home().dir());
            Files.writeString(home().dir().resolve(name), yaml);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
