package dev.nvidb.cli;

import dev.nvidb.error.UsageException;

/** Reads job ids typed on the command line. */
final class JobIds {

    private JobIds() {
    }

    static long parse(String text) {
        try {
            long id = Long.parseLong(text.strip());
            if (id <= 0) {
                throw new NumberFormatException();
            }
            return id;
        } catch (NumberFormatException e) {
            throw new UsageException("'" + text + "' is not a job id", "job ids are positive numbers (see nvidb job ls)");
        }
    }
}
