package dev.nvidb.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work done inside one transaction of a {@link Database}. Callers outside this package write
 * it as a lambda ({@code conn -> jobs.place(conn, ...)}) and never name {@code java.sql} types.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface SqlWork<T> {

    /** Runs against the transaction's connection; an {@link SQLException} rolls the transaction back. */
    T run(Connection connection) throws SQLException;
}
