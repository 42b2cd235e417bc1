package dev.nvidb.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last scheduler pass's reason for every pending job, kept as one JSON object in the meta
 * table ({@code {"12": "waiting for …", …}}): reasons change every tick, so they are not worth a
 * write per job. A database written before reasons were JSON holds them as lines of
 * {@code id<TAB>reason}; those are still read, until the next pass writes JSON.
 */
public final class PendingReasonStore {

    static final String KEY = "pending_reasons";

    private final MetaStore meta;

    public PendingReasonStore(Database database) {
        this.meta = new MetaStore(database);
    }

    /** The reasons the last pass stored, by job id; empty when none were. */
    public Map<Long, String> read() {
        return meta.get(KEY).map(PendingReasonStore::decode).orElse(Map.of());
    }

    /** Replaces the stored reasons with {@code reasons}, in the pass's transaction. */
    public void write(Connection connection, Map<Long, String> reasons) throws SQLException {
        meta.put(connection, KEY, encode(reasons));
    }

    static String encode(Map<Long, String> reasons) {
        Map<String, String> byId = new LinkedHashMap<>();
        reasons.forEach((id, reason) -> byId.put(Long.toString(id), reason));
        return JsonText.write(byId);
    }

    static Map<Long, String> decode(String text) {
        Map<Long, String> reasons = new HashMap<>();
        if (text.startsWith("{")) {
            JsonText.readStringMap(text).forEach((id, reason) -> reasons.put(Long.parseLong(id), reason));
            return reasons;
        }
        for (String line : text.split("\n")) { // written before reasons were JSON
            int tab = line.indexOf('\t');
            if (tab > 0) {
                reasons.put(Long.parseLong(line.substring(0, tab)), line.substring(tab + 1));
            }
        }
        return reasons;
    }
}
