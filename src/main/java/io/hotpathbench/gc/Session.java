package io.hotpathbench.gc;

/**
 * One client's session kept between requests: the long-lived part of the heap. {@code state} is
 * its serialized context (counters, recent templates), rewritten when the session is refreshed.
 */
public final class Session {
    final long id;
    final long lastSeen;
    final String phone;
    final byte[] state;

    Session(long id, long lastSeen, String phone, byte[] state) {
        this.id = id;
        this.lastSeen = lastSeen;
        this.phone = phone;
        this.state = state;
    }

    /** The same session seen again at {@code now}: a new object with a copy of the state, one byte of it changed. */
    Session refreshed(long now, int at, byte value) {
        byte[] next = state.clone();
        next[at] = value;
        return new Session(id, now, phone, next);
    }
}
