package io.hotpathbench.latency;

import java.nio.charset.StandardCharsets;

/**
 * What the tool does with each response body, baseline first; both read the body to its end and
 * report the same status and length in bytes.
 */
public enum BodyHandling {

    /**
     * The write-up's "before": the body read whole, decoded from UTF-8 into a {@code String} and kept
     * in the outcome. Reading it with {@code readAllBytes} and one {@code new String} is the cheapest
     * way to get that {@code String}; a client's {@code toString(entity)} goes through a
     * {@code Reader} and a char buffer and allocates more. The accented names of the bodies send
     * the decoder down its byte-by-byte path (JDK 17 took about 8 us for a 4 KB body here, JDK 25
     * about 3 us), where an all-ASCII body is copied at once: decoding, more than keeping, is most
     * of this variant's time.
     */
    KEEP_STRING {
        @Override
        public BodyHandler create() {
            return (status, body) -> {
                byte[] bytes = body.readAllBytes();
                return new RequestOutcome(status, bytes.length, new String(bytes, StandardCharsets.UTF_8));
            };
        }
    },

    /** The fix: the body drained through one reused 8 KB buffer, keeping only its length and the status. */
    CONSUME {
        @Override
        public BodyHandler create() {
            byte[] buffer = new byte[8192];
            return (status, body) -> {
                int length = 0;
                for (int n; (n = body.read(buffer)) != -1; ) {
                    length += n;
                }
                return new RequestOutcome(status, length, null);
            };
        }
    };

    /** A handler for one thread: {@code CONSUME}'s buffer is not shared. */
    public abstract BodyHandler create();
}
