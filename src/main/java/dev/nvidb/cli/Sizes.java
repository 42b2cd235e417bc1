package dev.nvidb.cli;

import dev.nvidb.config.MemorySizes;
import dev.nvidb.error.UsageException;
import java.util.OptionalLong;

/** Reads memory sizes typed on the command line (see {@link MemorySizes}): a usage error for anything else. */
final class Sizes {

    private Sizes() {
    }

    /** The size in MiB, or a usage error naming {@code option} and what was typed. */
    static long mebibytes(String text, String option) {
        OptionalLong mebibytes = MemorySizes.mebibytes(text);
        if (mebibytes.isPresent()) {
            return mebibytes.getAsLong();
        }
        if (MemorySizes.looksLikeSize(text)) {
            throw new UsageException(option + " is implausibly large: '" + text + "'");
        }
        String trimmed = text == null ? "" : text.strip();
        throw new UsageException(option + " takes a size such as 20G, 512M or 24576 (MiB), got '" + text + "'",
                trimmed.startsWith("-") ? "a size cannot be negative" : null);
    }
}
