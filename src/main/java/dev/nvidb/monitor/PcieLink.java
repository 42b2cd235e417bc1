package dev.nvidb.monitor;

import dev.nvidb.model.PcieSnapshot;
import java.util.Locale;
import java.util.Optional;

/**
 * A PCIe link, generation × lanes ("4.0x16"), and what it can carry per direction. Used to
 * score a GPU's measured PCIe traffic against the link it actually runs on (see
 * {@link PcieScore}): a card in a narrower slot, or an idle card that dropped to a lower
 * generation, has a lower ceiling than its data sheet says.
 *
 * @param generation PCIe generation, 1 or more
 * @param width      lanes, 1 or more
 */
public record PcieLink(int generation, int width) {

    /**
     * Usable bytes per second of one lane in one direction, by generation: the transfer rate
     * after line encoding (8b/10b for 1.0 and 2.0, 128b/130b for 3.0 to 5.0, FLIT mode's
     * 242/256 for 6.0), eight bits a byte.
     */
    private static final double[] LANE_BYTES_PER_SECOND = {
        2.5e9 * 8 / 10 / 8,      // 1.0: 0.25 GB/s
        5e9 * 8 / 10 / 8,        // 2.0: 0.5 GB/s
        8e9 * 128 / 130 / 8,     // 3.0: ~0.985 GB/s
        16e9 * 128 / 130 / 8,    // 4.0: ~1.969 GB/s
        32e9 * 128 / 130 / 8,    // 5.0: ~3.938 GB/s
        64e9 * 242 / 256 / 8,    // 6.0: ~7.563 GB/s
    };

    public PcieLink {
        if (generation < 1 || width < 1) {
            throw new IllegalArgumentException("a PCIe link has generation and width of at least 1, not "
                    + generation + "x" + width);
        }
    }

    /** The link the GPU runs at now, when NVML gave both figures and they make a link. */
    public static Optional<PcieLink> current(PcieSnapshot pcie) {
        return of(pcie.linkGeneration(), pcie.linkWidth());
    }

    /** The widest link the GPU and its slot allow, when NVML gave both figures. */
    public static Optional<PcieLink> max(PcieSnapshot pcie) {
        return of(pcie.maxLinkGeneration(), pcie.maxLinkWidth());
    }

    /** A link from nullable figures: empty when either is unknown or below 1. */
    public static Optional<PcieLink> of(Integer generation, Integer width) {
        if (generation == null || width == null || generation < 1 || width < 1) {
            return Optional.empty();
        }
        return Optional.of(new PcieLink(generation, width));
    }

    /**
     * Bytes per second this link carries in one direction (decimal: 10^9 is one GB/s), or
     * empty for a generation newer than this table knows.
     */
    public Optional<Double> bytesPerSecond() {
        if (generation > LANE_BYTES_PER_SECOND.length) {
            return Optional.empty();
        }
        return Optional.of(LANE_BYTES_PER_SECOND[generation - 1] * width);
    }

    /** As {@link #bytesPerSecond()}, in GB/s (10^9 bytes per second). */
    public Optional<Double> gigabytesPerSecond() {
        return bytesPerSecond().map(bytes -> bytes / 1e9);
    }

    /** How PCIe tools and the seed name a link: {@code 4.0x16}. */
    public String label() {
        return String.format(Locale.ROOT, "%d.0x%d", generation, width);
    }
}
