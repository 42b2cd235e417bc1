package dev.nvidb.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The dashboard's routes: the page ({@code /}), its scripts and styles and uPlot's (all from the
 * jar: the page needs no network), and the JSON API under {@code /api/} (docs/web.md). Only GET
 * and HEAD; every answer says not to cache it and forbids scripts and connections elsewhere.
 */
final class Dashboard extends Handler.Abstract {

    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final String OWN = "dev/nvidb/web/";

    /** What {@code /assets/NAME} serves: the resource and its type. */
    private static final Map<String, String[]> ASSETS = Map.of(
            "app.css", new String[] {OWN + "app.css", "text/css; charset=utf-8"},
            "app.js", new String[] {OWN + "app.js", "text/javascript; charset=utf-8"},
            "live.js", new String[] {OWN + "live.js", "text/javascript; charset=utf-8"},
            "history.js", new String[] {OWN + "history.js", "text/javascript; charset=utf-8"},
            "queue.js", new String[] {OWN + "queue.js", "text/javascript; charset=utf-8"},
            "uPlot.iife.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
            "uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css; charset=utf-8"});

    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final Map<String, Function<Parameters, Reply>> api;
    private final Map<String, byte[]> resources = new ConcurrentHashMap<>();

    /** @param api the API's routes, by path ({@code /api/live}), each answering a request's parameters */
    Dashboard(Map<String, Function<Parameters, Reply>> api) {
        this.api = Map.copyOf(api);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        Reply reply;
        if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
            reply = Reply.error(405, "only GET is served here, not " + request.getMethod());
        } else if (path.equals("/")) {
            reply = new Reply(200, "text/html; charset=utf-8", resource(OWN + "index.html"));
        } else if (path.startsWith("/assets/") && ASSETS.containsKey(path.substring("/assets/".length()))) {
            String[] asset = ASSETS.get(path.substring("/assets/".length()));
            reply = new Reply(200, asset[1], resource(asset[0]));
        } else if (api.containsKey(path)) {
            reply = answer(api.get(path), request);
        } else if (path.startsWith("/api/")) {
            reply = Reply.error(404, "no API at " + path + " (see docs/web.md)");
        } else {
            reply = Reply.text(404, "text/plain; charset=utf-8", "404: nothing at " + path + "\n");
        }
        response.setStatus(reply.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("Content-Security-Policy", CSP);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        if (reply.contentType().startsWith("text/csv")) {
            response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION, "attachment; filename=\"gpu-samples.csv\"");
        }
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length);
        boolean head = request.getMethod().equals("HEAD");
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(reply.body()), callback);
        return true;
    }

    private static Reply answer(Function<Parameters, Reply> route, Request request) {
        Fields fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        Map<String, String> values = new HashMap<>();
        for (Fields.Field field : fields) {
            if (field.getValues().size() > 1) {
                return Reply.error(400, "parameter " + field.getName() + " is given more than once");
            }
            values.put(field.getName(), field.getValue());
        }
        try {
            return route.apply(new Parameters(values));
        } catch (ApiException e) {
            return Reply.error(e.status(), e.getMessage());
        } catch (dev.nvidb.error.NvidbException e) {
            return Reply.error(500, e.getMessage());
        } catch (RuntimeException e) {
            return Reply.error(500, "internal error: " + e);
        }
    }

    private byte[] resource(String name) {
        return resources.computeIfAbsent(name, missing -> {
            try (InputStream in = Dashboard.class.getClassLoader().getResourceAsStream(missing)) {
                if (in == null) {
                    throw new IllegalStateException("the jar lacks " + missing);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
