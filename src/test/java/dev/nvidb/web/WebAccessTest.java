package dev.nvidb.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The token guards every page and API: 403 without it, through with the cookie, the query or the header. */
class WebAccessTest {

    private final AccessToken token = AccessToken.random();
    private WebServer server;
    private WebClient client;

    @BeforeEach
    void start() {
        Map<String, Function<Parameters, Reply>> api = Map.of("/api/echo",
                parameters -> Reply.json(Map.of("flag", parameters.flag("on", false))));
        server = WebServer.start("127.0.0.1", 0, token, api);
        client = new WebClient(server, token);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void tokensAreRandomUrlSafe128BitValues() {
        String one = AccessToken.random().value();
        assertTrue(one.matches("[A-Za-z0-9_-]{22}"), one);
        assertNotEquals(one, AccessToken.random().value());
        assertTrue(token.matches(token.value()));
        assertEquals(false, token.matches(token.value() + "x"));
        assertEquals(false, token.matches(null));
    }

    @Test
    void withoutTheTokenEveryPageAndApiIsForbidden() throws Exception {
        for (String path : List.of("/", "/api/echo", "/api/live", "/assets/app.js", "/assets/uPlot.iife.min.js", "/nothing")) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(client.uri(path)));
            assertEquals(403, response.statusCode(), path);
        }
        HttpResponse<String> wrong = client.send(HttpRequest.newBuilder(client.uri("/api/echo?token=" + AccessToken.random().value())));
        assertEquals(403, wrong.statusCode());
        assertEquals("{\n  \"error\" : \"no valid token: open the address 'nvidb web' printed (with ?token=…)\"\n}", wrong.body());
        HttpResponse<String> badCookie = client.send(HttpRequest.newBuilder(client.uri("/api/echo"))
                .header("Cookie", AccessGuard.cookieName(server.port()) + "=" + AccessToken.random().value()));
        assertEquals(403, badCookie.statusCode());
    }

    @Test
    void theTokenPassesAsHeaderQueryOrTheCookieThePageSets() throws Exception {
        assertEquals(200, client.get("/api/echo?on=1").statusCode());
        assertEquals("{\n  \"flag\" : true\n}", client.get("/api/echo?on=1").body());
        assertEquals(200, client.send(HttpRequest.newBuilder(client.uri("/api/echo?token=" + token.value()))).statusCode());

        HttpResponse<String> page = client.send(HttpRequest.newBuilder(client.uri("/?token=" + token.value() + "#history")));
        assertEquals(303, page.statusCode());
        assertEquals("/", page.headers().firstValue("Location").orElseThrow());
        String cookie = page.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.startsWith(AccessGuard.cookieName(server.port()) + "=" + token.value() + ";"), cookie);
        assertTrue(cookie.contains("HttpOnly"), cookie);
        assertTrue(cookie.contains("SameSite=Strict"), cookie);

        String pair = cookie.substring(0, cookie.indexOf(';'));
        for (String path : List.of("/", "/assets/app.js", "/assets/uPlot.iife.min.js", "/assets/uPlot.min.css", "/api/echo")) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(client.uri(path)).header("Cookie", pair));
            assertEquals(200, response.statusCode(), path);
        }
        HttpResponse<String> index = client.send(HttpRequest.newBuilder(client.uri("/")).header("Cookie", pair));
        assertTrue(index.body().contains("/assets/uPlot.iife.min.js"), index.body());
        assertTrue(index.headers().firstValue("Content-Security-Policy").orElseThrow().contains("script-src 'self'"));
    }

    @Test
    void badRequestsAreOneJsonLine() throws Exception {
        HttpResponse<String> unknown = client.get("/api/nothing");
        assertEquals(404, unknown.statusCode());
        assertEquals("{\n  \"error\" : \"no API at /api/nothing (see docs/web.md)\"\n}", unknown.body());
        HttpResponse<String> bad = client.get("/api/echo?on=maybe");
        assertEquals(400, bad.statusCode());
        assertEquals("{\n  \"error\" : \"parameter on=maybe is not 0 or 1\"\n}", bad.body());
        HttpResponse<String> twice = client.get("/api/echo?on=1&on=0");
        assertEquals(400, twice.statusCode());
    }
}
