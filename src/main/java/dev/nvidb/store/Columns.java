package dev.nvidb.store;

/**
 * The base's null-aware column helpers ({@link dev.nvidb.sqlite.Columns}: epoch-millisecond
 * times, nullable numbers, {@code bind}, {@code update}, {@code queryLong}) under the name the
 * stores and their tests call them by.
 */
final class Columns extends dev.nvidb.sqlite.Columns {

    private Columns() {
    }
}
