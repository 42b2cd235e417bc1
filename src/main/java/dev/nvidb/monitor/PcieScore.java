package dev.nvidb.monitor;

import dev.nvidb.model.PcieSnapshot;
import java.util.Optional;

/**
 * A GPU's PCIe traffic scored against the link it runs on now: RX and TX as a share of what
 * that link carries per direction. The monitor colours the share by {@link Level}. Every
 * figure is nullable: null when NVML did not give what it needs. SXM boards are scored on
 * their host PCIe link, which is what NVML counts; NVLink traffic is not included.
 *
 * @param link                   the link now, null when unknown
 * @param maxLink                the widest link the card and its slot allow, null when unknown
 * @param linkGigabytesPerSecond what {@code link} carries per direction, GB/s (10^9 bytes)
 * @param rxGigabytesPerSecond   what the GPU received, GB/s
 * @param txGigabytesPerSecond   what the GPU sent, GB/s
 * @param rxPercent              RX as a percentage of {@code linkGigabytesPerSecond}
 * @param txPercent              TX as a percentage of {@code linkGigabytesPerSecond}
 */
public record PcieScore(
        PcieLink link,
        PcieLink maxLink,
        Double linkGigabytesPerSecond,
        Double rxGigabytesPerSecond,
        Double txGigabytesPerSecond,
        Double rxPercent,
        Double txPercent) {

    /**
     * Bytes in one of NVML's throughput "KB": 1000, the decimal unit link bandwidth is quoted
     * in (NVML documents KB/s without saying which KB; 1024 would read 2.4% higher).
     */
    public static final long BYTES_PER_KB = 1000;

    /** How loaded a direction is: below 40% normal, up to 70% high, past 70% the link shapes transfers. */
    public enum Level {
        /** No share: link or throughput unknown. */
        UNKNOWN,
        /** At most 40% of the link. */
        NORMAL,
        /** Past 40%, up to 70%. */
        HIGH,
        /** Past 70%: the interconnect is shaping transfers. */
        SATURATED;

        /** The level of a share in percent; null is {@link #UNKNOWN}. */
        public static Level of(Double percent) {
            if (percent == null) {
                return UNKNOWN;
            }
            return percent > 70 ? SATURATED : percent > 40 ? HIGH : NORMAL;
        }
    }

    /** Scores one GPU's PCIe figures. */
    public static PcieScore of(PcieSnapshot pcie) {
        PcieLink link = PcieLink.current(pcie).orElse(null);
        Double capacity = link == null ? null : link.bytesPerSecond().orElse(null);
        Double rx = bytesPerSecond(pcie.rxKilobytesPerSecond());
        Double tx = bytesPerSecond(pcie.txKilobytesPerSecond());
        return new PcieScore(link, PcieLink.max(pcie).orElse(null), giga(capacity), giga(rx), giga(tx),
                percent(rx, capacity), percent(tx, capacity));
    }

    /** The level of the received share. */
    public Level rxLevel() {
        return Level.of(rxPercent);
    }

    /** The level of the sent share. */
    public Level txLevel() {
        return Level.of(txPercent);
    }

    /** The busier direction's share, or null when neither is known. */
    public Double peakPercent() {
        if (rxPercent == null || txPercent == null) {
            return rxPercent != null ? rxPercent : txPercent;
        }
        return Math.max(rxPercent, txPercent);
    }

    /** True when the card runs narrower or at a lower generation than it and its slot allow. */
    public boolean belowMax() {
        return link != null && maxLink != null
                && (link.generation() < maxLink.generation() || link.width() < maxLink.width());
    }

    private static Double bytesPerSecond(Long kilobytes) {
        return kilobytes == null ? null : kilobytes.doubleValue() * BYTES_PER_KB;
    }

    private static Double giga(Double bytes) {
        return Optional.ofNullable(bytes).map(value -> value / 1e9).orElse(null);
    }

    private static Double percent(Double bytes, Double capacity) {
        return bytes == null || capacity == null ? null : 100.0 * bytes / capacity;
    }
}
