package io.hotpathbench.gc;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The send-message request of the write-up's platform, reduced to what the garbage collector sees.
 * The long-lived part is a live set of {@code sessions} client sessions of about {@code sessionBytes}
 * of state each (a few hundred MB in all), built once. A request parses its seeded line
 * {@code appId|templateId|phone|content}, renders the notification (the template and the content)
 * and the reply (the notification repeated into a {@code StringBuilder} of {@code replyBytes}
 * characters, as a batch of notifications would be), encodes it to UTF-8 and returns a checksum of
 * the reply and of its client's session: about three times {@code replyBytes} of short-lived objects
 * per request. Every {@code refreshEvery}-th request also refreshes a session, replacing it with a
 * new copy of its state, in a sweep over the live set: each session lives a fixed number of
 * requests, long enough to be promoted to the old generation and then die there, so the old
 * generation churns and G1 runs marking cycles and mixed collections, as under a service's cache.
 *
 * <p>Every input is drawn once from {@code seed}; {@link #handle} returns the same checksum for the
 * same sequence of calls. Two threads may call it at once, each with its own range of request
 * numbers: a session is replaced by a plain array store, a race that costs no correctness here.
 */
public final class MessageService {

    /** Request lines drawn per service, cycled with a mask. */
    public static final int REQUESTS = 1 << 16;
    private static final int MASK = REQUESTS - 1;
    private static final int TEMPLATES = 1 << 10;

    private final Session[] sessions;
    private final String[] lines;
    private final int[] sessionOf;
    private final String[] templates;
    private final int replyBytes;
    private final int refreshEvery;

    public MessageService(int sessions, int sessionBytes, int replyBytes, int refreshEvery, long seed) {
        if (sessions < 1 || sessionBytes < 1 || replyBytes < 1 || refreshEvery < 1) {
            throw new IllegalArgumentException("sessions, sessionBytes, replyBytes and refreshEvery must be positive");
        }
        SplittableRandom random = new SplittableRandom(seed);
        this.replyBytes = replyBytes;
        this.refreshEvery = refreshEvery;
        this.sessions = new Session[sessions];
        for (int i = 0; i < sessions; i++) {
            byte[] state = new byte[sessionBytes];
            random.nextBytes(state);
            this.sessions[i] = new Session(i, 0, phone(random), state);
        }
        templates = new String[TEMPLATES];
        for (int t = 0; t < TEMPLATES; t++) {
            templates[t] = "[App] Dear customer, your verification code for template " + t + " is " + random.nextInt(1_000_000)
                    + ". Do not share it. " + letters(random, 20 + random.nextInt(80));
        }
        lines = new String[REQUESTS];
        sessionOf = new int[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            sessionOf[i] = random.nextInt(sessions);
            lines[i] = (1 + random.nextInt(100)) + "|" + random.nextInt(TEMPLATES) + "|" + this.sessions[sessionOf[i]].phone
                    + "|" + letters(random, 20 + random.nextInt(180));
        }
    }

    /**
     * Request number {@code n} (its line is {@code n} modulo {@link #REQUESTS}; the sweep refreshes
     * session {@code n / refreshEvery} modulo the session count when {@code n} is a multiple of
     * {@code refreshEvery}). {@code sink} receives the encoded reply, so that it escapes and is
     * really allocated.
     */
    public long handle(long n, byte[][] sink) {
        int r = (int) n & MASK;
        String line = lines[r];
        int a = line.indexOf('|');
        int b = line.indexOf('|', a + 1);
        int c = line.indexOf('|', b + 1);
        int appId = Integer.parseInt(line, 0, a, 10);
        String template = templates[Integer.parseInt(line, a + 1, b, 10)];
        String phone = line.substring(b + 1, c);
        String content = line.substring(c + 1);
        String notification = appId + " " + phone + ": " + template + " " + content + "\n";
        StringBuilder reply = new StringBuilder(replyBytes);
        while (reply.length() < replyBytes) {
            reply.append(notification, 0, Math.min(notification.length(), replyBytes - reply.length()));
        }
        byte[] encoded = reply.toString().getBytes(StandardCharsets.UTF_8);
        sink[0] = encoded;
        if (n % refreshEvery == 0) {
            int s = (int) Long.remainderUnsigned(n / refreshEvery, sessions.length);
            Session old = sessions[s];
            sessions[s] = old.refreshed(n, r % old.state.length, encoded[r % encoded.length]);
        }
        Session session = sessions[sessionOf[r]];
        long sum = encoded.length;
        for (int k = 0; k < encoded.length; k += 61) {
            sum = sum * 31 + encoded[k];
        }
        return sum * 31 + session.state[r % session.state.length] + session.id;
    }

    /** Live sessions (the live set's size is this times about {@code sessionBytes} plus headers). */
    public int sessions() {
        return sessions.length;
    }

    /** Session {@code s} as it is now, for tests. */
    Session session(int s) {
        return sessions[s];
    }

    private static String phone(SplittableRandom random) {
        return "1" + (3_000_000_000L + random.nextLong(7_000_000_000L));
    }

    private static String letters(SplittableRandom random, int n) {
        char[] out = new char[n];
        for (int k = 0; k < n; k++) {
            out[k] = (char) ('a' + random.nextInt(26));
        }
        return new String(out);
    }
}
