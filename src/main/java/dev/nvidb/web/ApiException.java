package dev.nvidb.web;

/**
 * A request the API cannot answer, with the HTTP status that says why (400 bad parameter,
 * 404 nothing there, 409 the file is not what it should be, 500 it could not be read). It never
 * leaves this package: the dashboard turns it into {@code {"error": "…"}}.
 */
final class ApiException extends RuntimeException {

    private final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    static ApiException notFound(String message) {
        return new ApiException(404, message);
    }
}
