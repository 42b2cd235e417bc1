package dev.nvidb.output;

import dev.nvidb.queue.EventView;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.stream.Collectors;

/** One line per event: id, local time, what happened, to which job and node. Pure. */
public final class EventText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    private EventText() {
    }

    public static String line(EventView event) {
        StringBuilder line = new StringBuilder(String.format("%6d  %s  %-10s", event.id(), TIME.format(event.at()),
                event.kind()));
        if (event.jobId() != null) {
            line.append("  job ").append(event.jobId());
        }
        if (event.node() != null) {
            line.append("  on ").append(event.node());
        }
        Map<String, Object> detail = Json.readObject(event.detail());
        if (!detail.isEmpty()) {
            line.append("  ").append(detail.entrySet().stream().filter(entry -> entry.getValue() != null)
                    .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(" ")));
        }
        return Printable.of(line.toString());
    }
}
