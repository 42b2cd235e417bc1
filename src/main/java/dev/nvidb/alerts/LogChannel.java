package dev.nvidb.alerts;

import dev.nvidb.config.FileTrust;
import dev.nvidb.error.ConfigException;
import dev.nvidb.store.Alert;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;

/**
 * {@code log}: one JSON line per alert appended to {@code $NVIDB_HOME/alerts.log}, owner-only
 * (0600). Each line goes out in one {@code write} on a file opened for appending, so lines of
 * two daemons never interleave and a reader sees whole lines; it is forced to disk before the
 * delivery is recorded. An alert whose line is already among the log's last lines (written by a
 * daemon killed before it recorded the delivery) is not written again, so this channel delivers
 * each alert exactly once. A link, a file of another user or one others may write is refused.
 */
public final class LogChannel implements Channel {

    public static final String NAME = "log";
    /** How much of the log's end {@link #logged} reads. */
    private static final int RECENT_BYTES = 256 * 1024;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;

    public LogChannel(Path file) {
        this.file = file;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration timeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    public void deliver(Alert alert, String document) throws IOException {
        byte[] line = (document + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel out = open()) {
            if (logged(alert.id())) {
                // A daemon killed between this append and recording it left its claim to expire; the
                // line is there, so the alert was delivered on this channel: record it, write nothing.
                return;
            }
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(false);
        } catch (IOException e) {
            throw new IOException("cannot append to " + file + ": " + reason(e), e);
        }
    }

    /**
     * Whether the last {@value #RECENT_BYTES} bytes of the log hold this alert's line: a claim is
     * taken over 15 s after a killed daemon took it, so its line is among the last few hundred.
     * Every line starts with {@code "schema_version":N,"id":ID,"at":}, and a string value cannot hold
     * {@code ,"id":ID,"at":} unescaped, so the marker names one alert's line only.
     */
    private boolean logged(long id) throws IOException {
        // its own channel: a channel opened for appending cannot read
        try (FileChannel log = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = log.size();
            int length = (int) Math.min(size, RECENT_BYTES);
            ByteBuffer tail = ByteBuffer.allocate(length);
            while (tail.hasRemaining() && log.read(tail, size - length + tail.position()) >= 0) {
                // read to the end as it was
            }
            String text = new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8);
            return text.contains(",\"id\":" + id + ",\"at\":");
        }
    }

    private FileChannel open() throws IOException {
        try {
            FileTrust.requireTrusted(file, "alerts.log");
        } catch (ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
        Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.APPEND,
                StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS);
        boolean posix = Files.getFileStore(file.getParent()).supportsFileAttributeView(PosixFileAttributeView.class);
        FileChannel channel = posix
                ? FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : FileChannel.open(file, options);
        if (posix) {
            try {
                PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                if (!attributes.isRegularFile()) {
                    throw new IOException("it is not a regular file");
                }
                if (!attributes.permissions().equals(OWNER_ONLY)) {
                    Files.setPosixFilePermissions(file, OWNER_ONLY);
                }
            } catch (IOException e) {
                channel.close();
                throw e;
            }
        }
        return channel;
    }

    private static String reason(IOException e) {
        String message = e.getMessage();
        if (e instanceof java.nio.file.FileSystemException failed && failed.getReason() != null) {
            message = failed.getReason();
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
