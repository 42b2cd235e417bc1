package dev.nvidb.queue;

import dev.nvidb.engine.LogReader;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A job's output, read where it lives, on its node: the last lines, the bytes after an offset,
 * and following ({@code job logs -f}) by byte offset, so no byte is shown twice or skipped,
 * until the job ends and its last bytes are read.
 */
public final class LogFollowing {

    /** The most bytes one read brings back. */
    public static final int CHUNK = 1 << 20;

    private final LogReader reader;
    private final StatusReading reading;
    private final Ticking ticking;
    private final Pause pause;

    LogFollowing(LogReader reader, StatusReading reading, Ticking ticking, Pause pause) {
        this.reader = reader;
        this.reading = reading;
        this.ticking = ticking;
        this.pause = pause;
    }

    /** The last {@code lines} lines of the job's stdout (or stderr). */
    public String tail(JobView job, boolean stderr, int lines) {
        return reader.tail(location(job), stderr, lines);
    }

    /** The last {@code lines} lines of each job's stdout that has a directory (it started), by id, in their order. */
    public java.util.Map<Long, String> tails(java.util.List<JobView> jobs, int lines) {
        java.util.Map<Long, String> tails = new java.util.LinkedHashMap<>();
        for (JobView job : jobs) {
            if (lines > 0 && job.jobDir() != null) {
                tails.put(job.id(), tail(job, false, lines));
            }
        }
        return tails;
    }

    /** The last {@code lines} lines and the offset just after them (see {@link LogReader#lastLines}). */
    public OutputChunk lastLines(JobView job, boolean stderr, int lines) {
        return chunk(reader.lastLines(location(job), stderr, lines));
    }

    /** At most {@link #CHUNK} bytes of output from byte {@code offset} on. */
    public OutputChunk read(JobView job, boolean stderr, long offset) {
        return chunk(reader.read(location(job), stderr, offset, CHUNK));
    }

    /**
     * The job once it has a directory to read (it started) or has ended without one; a job
     * not yet started is waited for, ticking so it can be placed, pausing {@code interval}
     * between checks.
     */
    public JobView awaitStart(long id, Duration interval) {
        JobView job = reading.getJob(id);
        while (job.jobDir() == null && !job.job().state().finished()) {
            pause.pause(interval);
            ticking.ifDue();
            job = reading.getJob(id);
        }
        return job;
    }

    /**
     * Gives {@code sink} the job's output from {@code offset} on as it grows, until the job has
     * ended and everything it wrote has been given. Between reads that found less than a full
     * chunk it pauses {@code interval} and ticks if due, so the job's end is noticed.
     */
    public void follow(JobView job, boolean stderr, long offset, Duration interval, Consumer<byte[]> sink) {
        long next = offset;
        while (true) {
            boolean ended = reading.getJob(job.id()).job().state().finished();
            OutputChunk chunk = read(job, stderr, next);
            sink.accept(chunk.bytes());
            next = chunk.nextOffset();
            if (ended && chunk.bytes().length == 0) {
                return;
            }
            if (chunk.bytes().length < CHUNK) {
                pause.pause(interval);
                ticking.ifDue();
            }
        }
    }

    private static LogReader.Location location(JobView job) {
        return new LogReader.Location(job.id(), job.job().assignment() == null ? null : job.job().assignment().node(),
                job.jobDir());
    }

    private static OutputChunk chunk(LogReader.Chunk chunk) {
        return new OutputChunk(chunk.bytes(), chunk.nextOffset(), chunk.cut());
    }
}
