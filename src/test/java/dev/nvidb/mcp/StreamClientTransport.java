package dev.nvidb.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK client's side of the stdio transport over a pair of streams instead of a child
 * process (the SDK's own {@code StdioClientTransport} starts the process itself): one JSON-RPC
 * message per line each way. It keeps every line the server wrote, so a test can check that
 * nothing but protocol frames reached the server's stdout.
 */
final class StreamClientTransport implements McpClientTransport {

    private final InputStream fromServer;
    private final OutputStream toServer;
    private final McpJsonMapper mapper;
    private final List<String> received = new CopyOnWriteArrayList<>();

    StreamClientTransport(InputStream fromServer, OutputStream toServer, McpJsonMapper mapper) {
        this.fromServer = fromServer;
        this.toServer = toServer;
        this.mapper = mapper;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    received.add(line);
                    McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(mapper, line);
                    handler.apply(Mono.just(message)).subscribe();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "mcp-test-client-reader");
        reader.setDaemon(true);
        reader.start();
        return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            try {
                byte[] line = (mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                synchronized (toServer) {
                    toServer.write(line);
                    toServer.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Writes one raw line to the server, as a broken client might. */
    void sendRaw(String line) throws IOException {
        synchronized (toServer) {
            toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            toServer.flush();
        }
    }

    /** Every line the server wrote so far. */
    List<String> received() {
        return List.copyOf(received);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            try {
                toServer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }
}
