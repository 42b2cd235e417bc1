package dev.nvidb.engine;

import dev.nvidb.store.Database;
import dev.nvidb.store.MetaStore;
import java.util.HashMap;
import java.util.Map;

/**
 * The last scheduler pass's reason for every pending job, kept as one document in the meta
 * table: reasons change every tick, so they are not worth a write per job.
 */
final class PendingReasons {

    static final String KEY = "pending_reasons";

    private final MetaStore meta;

    PendingReasons(Database database) {
        this.meta = new MetaStore(database);
    }

    Map<Long, String> read() {
        return meta.get(KEY).map(PendingReasons::decode).orElse(Map.of());
    }

    static String encode(Map<Long, String> reasons) {
        StringBuilder text = new StringBuilder();
        reasons.forEach((id, reason) -> text.append(id).append('\t')
                .append(reason.replace('\n', ' ').replace('\t', ' ')).append('\n'));
        return text.toString();
    }

    static Map<Long, String> decode(String text) {
        Map<Long, String> reasons = new HashMap<>();
        for (String line : text.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                reasons.put(Long.parseLong(line.substring(0, tab)), line.substring(tab + 1));
            }
        }
        return reasons;
    }
}
