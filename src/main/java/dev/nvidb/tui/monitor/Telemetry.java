package dev.nvidb.tui.monitor;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.ProcessStats;
import dev.nvidb.monitor.PcieScore;
import dev.nvidb.tui.Palette;
import java.util.Locale;
import org.jline.utils.AttributedStyle;

/** How the monitor screen writes the host and PCIe figures the agent reports. Pure. */
final class Telemetry {

    private Telemetry() {
    }

    /** "12.5" (one decimal below 100, none above), "-" when unknown. */
    static String percent(Double value) {
        if (value == null) {
            return "-";
        }
        return value < 99.95 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.0f", value);
    }

    /** Bytes as "812M", "3.4G"; "-" when unknown. */
    static String bytes(Long bytes) {
        if (bytes == null) {
            return "-";
        }
        double mib = bytes / 1048576.0;
        if (mib < 1024) {
            return String.format(Locale.ROOT, "%.0fM", mib);
        }
        return String.format(Locale.ROOT, "%.1fG", mib / 1024);
    }

    /** Elapsed time as "42s", "7:05", "3:07:05", "12d03h"; "-" when unknown. */
    static String elapsed(Long seconds) {
        if (seconds == null) {
            return "-";
        }
        long s = Math.max(0, seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
        }
        if (s < 86400) {
            return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", s / 86400, s / 3600 % 24);
    }

    static String threads(ProcessStats stats) {
        return stats.threads() == null ? "-" : Integer.toString(stats.threads());
    }

    static String state(ProcessStats stats) {
        return stats.state() == null ? "-" : stats.state();
    }

    /** The link the card runs on ("4.0x16"), "-" when unknown. */
    static String link(GpuSnapshot gpu) {
        PcieScore score = PcieScore.of(gpu.pcie());
        return score.link() == null ? "-" : score.link().label();
    }

    /** A direction's share of the link as "37%", "-" when unknown. */
    static String share(Double percent) {
        return percent == null ? "-" : Math.round(percent) + "%";
    }

    /** Both directions' shares as "40%/80%"; "-" when neither is known. */
    static String shares(PcieScore score) {
        if (score.rxPercent() == null && score.txPercent() == null) {
            return "-";
        }
        return share(score.rxPercent()) + "/" + share(score.txPercent());
    }

    /** Green under 40 %, yellow past 40 %, red past 70 %: the link shapes transfers there. */
    static AttributedStyle shareStyle(PcieScore.Level level) {
        return switch (level) {
            case NORMAL -> Palette.OK;
            case HIGH -> Palette.WARN;
            case SATURATED -> Palette.ERROR;
            case UNKNOWN -> null;
        };
    }
}
