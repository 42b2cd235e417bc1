package dev.nvidb.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.queue.SubmitRequest;
import dev.nvidb.queue.SweepRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed requests and replies of the daemon's socket survive the wire exactly, and nothing else is read as one. */
class DaemonRequestTest {

    private static final DaemonRequest.Options OPTIONS = new DaemonRequest.Options(true, false, true, false, true);

    private static byte[] bytes(DaemonRequest request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DaemonRequest.write(new DataOutputStream(out), request);
        return out.toByteArray();
    }

    private static DaemonRequest read(byte[] bytes) throws IOException {
        return DaemonRequest.read(new DataInputStream(new ByteArrayInputStream(bytes)));
    }

    @Test
    void everyRequestKindRoundTrips() throws IOException {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("SEED", "3");
        environment.put("EMPTY", "");
        SubmitRequest full = new SubmitRequest("sweep-1", "python train.py --lr 'ä'", 2, 20480, "gpu-a", "~/proj",
                environment, -4, List.of(3L, 4L), List.of(5L), 3600L, 2, List.of("a", "b"), "a note\nwith a line",
                "me@host", Map.of("PATH", "/bin", "HOME", "/home/me"), new SweepRequest("g", "k", "0-9%2", "op-1"),
                new RunPolicy(true, 3, true));
        SubmitRequest bare = new SubmitRequest(null, "true", 0, 0, null, null, Map.of(), 0, List.of(), List.of(), null, 0,
                List.of(), null, "me@host", null);
        for (DaemonRequest request : List.of(
                new DaemonRequest.Submit(OPTIONS, full),
                new DaemonRequest.Submit(OPTIONS, bare),
                new DaemonRequest.Status(OPTIONS, true, 25),
                new DaemonRequest.ListJobs(OPTIONS, List.of(JobState.FAILED, JobState.LOST), "gpu-b", 20, "g"),
                new DaemonRequest.ListJobs(OPTIONS, List.of(), null, null, null),
                new DaemonRequest.Wait(OPTIONS, List.of(7L, 8L), 90L, 40),
                new DaemonRequest.Wait(OPTIONS, List.of(1L), null, 0),
                new DaemonRequest.Line(List.of("job", "show", "3", "--json")))) {
            assertEquals(request, read(bytes(request)));
        }
    }

    @Test
    void truncatedOrUnknownBytesAreNoRequest() throws IOException {
        byte[] whole = bytes(new DaemonRequest.Status(OPTIONS, false, 10));
        for (int length = 0; length < whole.length; length++) {
            byte[] cut = Arrays.copyOf(whole, length);
            assertThrows(IOException.class, () -> read(cut), "cut at " + length);
        }
        assertThrows(IOException.class, () -> read(new byte[] {'?', 0, 0, 0, 0}));
        byte[] badState = bytes(new DaemonRequest.ListJobs(OPTIONS, List.of(JobState.RUNNING), null, null, null));
        byte[] renamed = new String(badState, java.nio.charset.StandardCharsets.ISO_8859_1).replace("RUNNING", "JOGGING")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThrows(IOException.class, () -> read(renamed));
    }

    @Test
    void repliesAreTheFramesTheClientRelays() {
        for (DaemonReply reply : List.of(new DaemonReply.Accepted(false), new DaemonReply.Accepted(true),
                new DaemonReply.Refused("another build"),
                new DaemonReply.Exit(130))) {
            assertEquals(reply, DaemonReply.of(reply.kind(), reply.payload()));
        }
        DaemonReply out = DaemonReply.of(DaemonReply.OUT, new byte[] {1, 2});
        assertArrayEquals(new byte[] {1, 2}, ((DaemonReply.Out) out).bytes());
        assertEquals(null, DaemonReply.of(DaemonReply.EXIT, new byte[] {1}), "an exit code is four bytes");
        assertEquals(null, DaemonReply.of((byte) '?', new byte[0]));
        assertEquals(new DaemonReply.Accepted(false), DaemonReply.of(DaemonReply.ACCEPTED, new byte[0]),
                "a bare acceptance is not a wait's");
    }
}
