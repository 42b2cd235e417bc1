package dev.nvidb.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP requests to a dashboard started in the test, with or without its token. */
final class WebClient {

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final WebServer server;
    private final AccessToken token;

    WebClient(WebServer server, AccessToken token) {
        this.server = server;
        this.token = token;
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    /** GET with the token in the header. */
    HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).header(AccessGuard.HEADER, token.value()));
    }

    /** GET as {@code builder} says (no token unless it adds one). */
    HttpResponse<String> send(HttpRequest.Builder builder) throws IOException, InterruptedException {
        return http.send(builder.timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
