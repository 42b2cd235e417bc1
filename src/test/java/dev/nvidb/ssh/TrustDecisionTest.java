package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.NvidbException;
import dev.nvidb.error.SshException;
import dev.nvidb.error.UsageException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What {@code nvidb trust} does with a presented key, apart from how it asks and prints. */
class TrustDecisionTest {

    private static final String FINGERPRINT = "SHA256:abc";

    private static HostKeyScan scan(HostKeyScan.Status status) {
        return new HostKeyScan("gpu-a", "10.0.0.5", 22, "ssh-ed25519", FINGERPRINT, null, status);
    }

    private static boolean record(HostKeyScan.Status status, String expected, boolean yes, Optional<Boolean> answer) {
        return TrustDecision.record(scan(status), "gpu-a", "10.0.0.5", expected, yes, () -> answer);
    }

    @Test
    void aKnownKeyIsLeftAsItIsWithoutAsking() {
        AtomicInteger asked = new AtomicInteger();
        assertFalse(TrustDecision.record(scan(HostKeyScan.Status.KNOWN), "gpu-a", "10.0.0.5", null, false, () -> {
            asked.incrementAndGet();
            return Optional.of(true);
        }));
        assertEquals(0, asked.get());
    }

    @Test
    void aChangedKeyIsRefusedWhateverTheUserSays() {
        for (boolean yes : new boolean[] {false, true}) {
            SshException refused = assertThrows(SshException.class,
                    () -> record(HostKeyScan.Status.CHANGED, FINGERPRINT, yes, Optional.of(true)));
            assertTrue(refused.getMessage().contains("has CHANGED"), refused.getMessage());
        }
    }

    @Test
    void anUnknownKeyIsRecordedOnAMatchingFingerprintOrAYes() {
        assertTrue(record(HostKeyScan.Status.UNKNOWN, FINGERPRINT, false, Optional.empty()));
        assertTrue(record(HostKeyScan.Status.UNKNOWN, null, true, Optional.empty()));
        assertTrue(record(HostKeyScan.Status.UNKNOWN, null, false, Optional.of(true)));
    }

    @Test
    void anUnknownKeyIsNotRecordedOtherwise() {
        NvidbException wrong = assertThrows(SshException.class,
                () -> record(HostKeyScan.Status.UNKNOWN, "SHA256:other", true, Optional.of(true)));
        assertTrue(wrong.getMessage().contains("not the expected SHA256:other"), wrong.getMessage());
        UsageException declined = assertThrows(UsageException.class,
                () -> record(HostKeyScan.Status.UNKNOWN, null, false, Optional.of(false)));
        assertEquals("not recorded", declined.getMessage());
        UsageException nobody = assertThrows(UsageException.class,
                () -> record(HostKeyScan.Status.UNKNOWN, null, false, Optional.empty()));
        assertTrue(nobody.getMessage().startsWith("not recorded: no terminal"), nobody.getMessage());
    }
}
