package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Job output read through the real agent, one request per read: the last lines with the offset
 * after them, byte-exact reads from an offset (any bytes, split characters included), the
 * bound on one read, and a log that is not there yet.
 */
class LogReadTest extends LocalJobs {

    private static final String DIR = "~/.nvidb/jobs/q1/5/1";
    private Path attempt;

    @BeforeEach
    void attemptDirectory() throws IOException {
        attempt = Files.createDirectories(home.resolve(".nvidb/jobs/q1/5/1"));
    }

    @Test
    void lastLinesCountLikeTailAndEndAtTheSizeTheFileHad() throws IOException {
        write("stdout.log", "one\ntwo\nthree\nfour\n");
        write("stderr.log", "e1\ne2\npartial");

        LogChunk two = read(LogRead.lastLines(5, DIR, false, 2));
        LogChunk partial = read(LogRead.lastLines(5, DIR, true, 2));
        LogChunk none = read(LogRead.lastLines(5, DIR, false, 0));
        LogChunk all = read(LogRead.lastLines(5, DIR, false, 100));

        assertEquals(LogChunk.Status.OK, two.status());
        assertEquals("three\nfour\n", text(two));
        assertEquals(19, two.nextOffset());
        assertEquals(8, two.offset());
        assertEquals("e2\npartial", text(partial));
        assertEquals(13, partial.nextOffset());
        assertEquals("", text(none));
        assertEquals(19, none.nextOffset());
        assertEquals("one\ntwo\nthree\nfour\n", text(all));
    }

    @Test
    void readsFromAnOffsetAreByteExactWhateverTheJobPrinted() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("ünï 🚀 $(x) `y` 'z'\n".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, '\r', '\n'});
        bytes.writeBytes("tail\n".getBytes(StandardCharsets.UTF_8));
        byte[] file = bytes.toByteArray();
        Files.write(attempt.resolve("stdout.log"), file);

        ByteArrayOutputStream followed = new ByteArrayOutputStream();
        long offset = 0;
        for (int reads = 0; offset < file.length; reads++) {
            assertTrue(reads < file.length, "reads make progress");
            LogChunk chunk = read(LogRead.from(5, DIR, false, offset, 3));  // 3 bytes: splits the 4-byte emoji
            assertEquals(offset, chunk.offset());
            assertTrue(chunk.bytes().length <= 3);
            followed.writeBytes(chunk.bytes());
            offset = chunk.nextOffset();
        }
        assertArrayEquals(file, followed.toByteArray());
        LogChunk atEnd = read(LogRead.from(5, DIR, false, offset, 100));
        assertEquals(0, atEnd.bytes().length);
        assertEquals(offset, atEnd.nextOffset());
    }

    @Test
    void followingAGrowingLogNeitherRepeatsNorDropsALine() throws IOException {
        write("stdout.log", "line 1\nline 2\n");
        LogChunk first = read(LogRead.lastLines(5, DIR, false, 1));
        append("line 3\nline ");
        LogChunk second = read(LogRead.from(5, DIR, false, first.nextOffset(), LogRead.LIMIT));
        append("4\n");
        LogChunk third = read(LogRead.from(5, DIR, false, second.nextOffset(), LogRead.LIMIT));

        assertEquals("line 2\nline 3\nline 4\n", text(first) + text(second) + text(third));
    }

    @Test
    void oneReadIsBoundedAndAHugeLastLineWindowDropsItsCutFirstLine() throws IOException {
        String line = "x".repeat(999) + "\n";
        write("stdout.log", line.repeat(1500));  // 1.5 MB

        LogChunk fromStart = read(LogRead.from(5, DIR, false, 0, LogRead.LIMIT));
        LogChunk last = read(LogRead.lastLines(5, DIR, false, 5000));
        LogChunk askedTooMuch = agent.send("{\"snapshot\":false,\"logs\":[{\"id\":5,\"dir\":\"" + DIR
                + "\",\"stream\":\"stdout\",\"offset\":0,\"max_bytes\":99999999}]}").findLog(5).orElseThrow();

        assertEquals(LogRead.LIMIT, fromStart.bytes().length);
        assertEquals(LogRead.LIMIT, fromStart.nextOffset());
        assertEquals(LogRead.LIMIT, askedTooMuch.bytes().length, "the agent enforces the bound itself");
        assertTrue(last.bytes().length <= LogRead.LIMIT);
        assertTrue(text(last).startsWith(line), "whole lines only");
        assertEquals(1_500_000, last.nextOffset());
    }

    @Test
    void aLogNotWrittenYetIsMissingAndABadEntryIsAnErrorOfItsOwn() {
        LogChunk missing = read(LogRead.from(5, DIR, true, 7, 100));
        ProbeReply reply = agent.send("{\"snapshot\":false,\"logs\":[{\"id\":6,\"dir\":\"" + DIR
                + "\",\"stream\":\"core\"},{\"id\":7,\"dir\":\"" + DIR + "\",\"offset\":-1}]}");

        assertEquals(LogChunk.Status.MISSING, missing.status());
        assertEquals(0, missing.bytes().length);
        assertEquals(7, missing.nextOffset());
        assertEquals(LogChunk.Status.ERROR, reply.findLog(6).orElseThrow().status());
        assertTrue(reply.findLog(6).orElseThrow().reason().contains("stream"));
        assertEquals(LogChunk.Status.ERROR, reply.findLog(7).orElseThrow().status());
    }

    private LogChunk read(LogRead read) {
        ProbeReply reply = agent.send(AgentRequest.probe(ROOT).withoutSnapshot().withLogs(List.of(read)));
        assertEquals(1, reply.logs().size());
        return reply.findLog(read.id()).orElseThrow();
    }

    private void write(String name, String text) throws IOException {
        Files.writeString(attempt.resolve(name), text);
    }

    private void append(String text) throws IOException {
        Files.writeString(attempt.resolve("stdout.log"), text, StandardOpenOption.APPEND);
    }

    private static String text(LogChunk chunk) {
        return new String(chunk.bytes(), StandardCharsets.UTF_8);
    }
}
