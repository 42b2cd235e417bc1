package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import org.junit.jupiter.api.Test;

/**
 * Round trips a cold connection spends (issue 12): authentication starts with the method the hop
 * uses, never with a {@code none} request that only asks the server which methods it takes (one
 * round trip on every connection: across a 100 ms network, 100 ms per node per command). A
 * server limited to one authentication request per connection (MINA's {@code max-auth-requests})
 * lets in a client that starts with its key and cuts off one that first sends {@code none} (as
 * MINA's own client does: this test fails with it): an exact check, not a time.
 */
class SshRoundTripsTest {

    @Test
    void authenticationStartsWithTheKeyNotWithANoneProbe() throws Exception {
        try (SshHarness harness = new SshHarness()) {
            TestHost host = harness.addHost("gpu-a");
            host.limitAuthRequests(1);
            try (SshPool pool = new SshPool(harness.settings())) {
                assertEquals("hi\n", pool.exec(harness.target("gpu-a"), "echo hi").stdoutText());
            }
            assertEquals(1, host.sessionsOpened());
        }
    }
}
