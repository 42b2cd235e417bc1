package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * "The last N lines" of a 200 MB log without a newline: the read asks for at most
 * {@link LogRead#LIMIT} bytes, the agent sends at most that many (the end of the file), and says
 * that it cut, so the client can say the lines are longer than what it shows. A log whose last
 * lines fit is not marked cut.
 */
class LongLineLogReadTest extends LocalJobs {

    private static final String DIR = "~/.nvidb/jobs/q1/5/1";
    private static final long SIZE = 200_000_000L;
    private Path log;

    @BeforeEach
    void twoHundredMegabytesWithoutANewline() throws IOException {
        Path attempt = Files.createDirectories(home.resolve(".nvidb/jobs/q1/5/1"));
        log = attempt.resolve("stdout.log");
        byte[] end = new byte[3 << 20];
        Arrays.fill(end, (byte) 'a');
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw")) {
            file.setLength(SIZE - end.length);  // sparse: NUL bytes that take no disk, no newline among them
            file.seek(SIZE - end.length);
            file.write(end);
        }
        assertEquals(SIZE, Files.size(log));
    }

    @Test
    void lastLinesReadsABoundedTailAndSaysItCut() {
        LogRead request = LogRead.lastLines(5, DIR, false, 3);
        assertTrue(request.maxBytes() <= LogRead.LIMIT, "what the reader asks for is bounded");
        assertTrue(request.toString().length() < 1000);

        LogChunk chunk = read(request);

        assertEquals(LogChunk.Status.OK, chunk.status());
        assertEquals(LogRead.LIMIT, chunk.bytes().length, "the last 1 MiB, no more");
        assertEquals(SIZE, chunk.nextOffset());
        assertEquals(SIZE - LogRead.LIMIT, chunk.offset());
        assertTrue(chunk.cut(), "a window that does not reach the start of its first line is cut");
        assertEquals('a', chunk.bytes()[0]);
    }

    @Test
    void aTailThatFitsIsNotCut() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw")) {
            file.seek(SIZE - 10);
            file.write("\nend\nlast\n".getBytes(StandardCharsets.US_ASCII));
        }
        LogChunk chunk = read(LogRead.lastLines(5, DIR, false, 2));
        assertEquals("end\nlast\n", new String(chunk.bytes(), StandardCharsets.US_ASCII));
        assertFalse(chunk.cut());
        LogChunk more = read(LogRead.lastLines(5, DIR, false, 3));
        assertEquals("end\nlast\n", new String(more.bytes(), StandardCharsets.US_ASCII), "whole lines only");
        assertTrue(more.cut(), "three lines asked, the third is longer than the window");
    }

    private LogChunk read(LogRead read) {
        ProbeReply reply = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withLogs(List.of(read)));
        return reply.findLog(read.id()).orElseThrow();
    }
}
