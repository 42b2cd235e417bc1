package dev.nvidb.config;

/**
 * The {@code queue.notify:} section: where alerts are delivered.
 *
 * @param desktop a desktop notification
 * @param log     a JSON line appended to {@code $NVIDB_HOME/alerts.log} (default true)
 * @param command a shell command that receives each alert as JSON on stdin; null for none
 */
public record NotifyConfig(boolean desktop, boolean log, String command) {

    public static NotifyConfig defaults() {
        return new NotifyConfig(false, true, null);
    }
}
