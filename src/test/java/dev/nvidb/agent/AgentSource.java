package dev.nvidb.agent;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * The node agent script the tests run: {@code -Dnvidb.agent.source} (pom.xml sets it to the
 * build's copy), else the copy on the class path, which {@link AgentScript#bundled} ships. Both
 * are the script the build joined from {@code remote-agent/src} (see {@code remote-agent/JoinAgent.java}).
 */
final class AgentSource {

    private AgentSource() {
    }

    static Path path() {
        String given = System.getProperty("nvidb.agent.source");
        if (given != null) {
            return Path.of(given);
        }
        URL shipped = AgentScript.class.getResource("nvidb_agent.py");
        if (shipped == null) {
            throw new IllegalStateException("no joined agent on the class path: build first (./mvnw -q generate-resources)");
        }
        try {
            return Path.of(shipped.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
