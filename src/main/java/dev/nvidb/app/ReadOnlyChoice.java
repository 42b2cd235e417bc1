package dev.nvidb.app;

/**
 * The default queue ($NVIDB_HOME/queue.db, on this machine), read without a tick: what the web
 * page and {@code nvidb clean} look at, never contacting a node.
 */
record ReadOnlyChoice() implements Wiring.QueueChoice {

    @Override
    public String dbPath() {
        return null;
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public boolean tick() {
        return false;
    }

    @Override
    public boolean noTick() {
        return true;
    }

    @Override
    public String commandName() {
        return null;
    }
}
