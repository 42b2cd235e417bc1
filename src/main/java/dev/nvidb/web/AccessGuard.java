package dev.nvidb.web;

import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * Lets through only requests that show the token: in the cookie this guard set, as
 * {@code ?token=}, or in the {@code X-Nvidb-Token} header; everything else (pages and API) is
 * 403. A page opened with the right {@code ?token=} gets the cookie (HttpOnly, SameSite=Strict)
 * and is sent on to the same address without the token, so it stays out of the history and of
 * what the page itself can read.
 */
final class AccessGuard extends Handler.Wrapper {

    static final String HEADER = "X-Nvidb-Token";
    static final String QUERY = "token";

    private final AccessToken token;

    AccessGuard(AccessToken token, Handler next) {
        super(next);
        this.token = token;
    }

    /** The cookie's name: with the port, so two dashboards on one host keep their own. */
    static String cookieName(int port) {
        return "nvidb_token_" + port;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        String fromQuery = query.getValue(QUERY);
        boolean api = Request.getPathInContext(request).startsWith("/api/");
        if (!api && token.matches(fromQuery)) {
            Response.addCookie(response, HttpCookie.build(cookieName(Request.getLocalPort(request)), token.value()).path("/").httpOnly(true)
                    .sameSite(HttpCookie.SameSite.STRICT).build());
            Response.sendRedirect(request, response, callback, HttpStatus.SEE_OTHER_303, withoutToken(request, query), true);
            return true;
        }
        if (token.matches(fromQuery) || token.matches(request.getHeaders().get(HEADER)) || hasCookie(request)) {
            return super.handle(request, response, callback);
        }
        response.setStatus(HttpStatus.FORBIDDEN_403);
        Reply refused = api ? Reply.error(403, "no valid token: open the address 'nvidb web' printed (with ?token=…)")
                : Reply.text(403, "text/plain; charset=utf-8",
                        "403: open the address 'nvidb web' printed (it ends in ?token=…); this one has no valid token.\n");
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, refused.contentType());
        response.write(true, java.nio.ByteBuffer.wrap(refused.body()), callback);
        return true;
    }

    private boolean hasCookie(Request request) {
        String name = cookieName(Request.getLocalPort(request));
        for (HttpCookie cookie : Request.getCookies(request)) {
            if (cookie.getName().equals(name) && token.matches(cookie.getValue())) {
                return true;
            }
        }
        return false;
    }

    /** The request's path and query, less the token. */
    private static String withoutToken(Request request, Fields query) {
        StringBuilder target = new StringBuilder(request.getHttpURI().getPath());
        String separator = "?";
        for (Fields.Field field : query) {
            if (field.getName().equals(QUERY)) {
                continue;
            }
            for (String value : field.getValues()) {
                target.append(separator).append(encode(field.getName())).append('=').append(encode(value));
                separator = "&";
            }
        }
        return target.toString();
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
