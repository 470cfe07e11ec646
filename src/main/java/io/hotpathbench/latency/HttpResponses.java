package io.hotpathbench.latency;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Seeded HTTP/1.1 responses of a product-search API, as a load generator receives them: 97% are
 * {@code 200} with a JSON page of products whose size is drawn uniformly from half to one and a
 * half times {@code meanBodyBytes}, 2% {@code 404} and 1% {@code 503} with a short JSON error. Some
 * product and brand names hold accented Latin-1 letters (two bytes in UTF-8, one in a compact
 * {@code String}); nothing lies beyond Latin-1, so a decoded body takes one byte per character.
 * Each response is available as its status and body bytes, and as the raw bytes on the wire
 * (status line, eight headers including {@code Content-Length}, blank line, body).
 */
public final class HttpResponses {

    private static final String[] PRODUCTS = {
        "Crème brûlée set", "Espresso cups", "Käse grater", "Jalapeño sauce", "Açaí bowl mix", "Smørrebrød board",
        "Müsli jar", "Café au lait bowls", "Cast iron skillet", "Chef's knife", "Linen apron", "Salad spinner",
        "Pour-over kettle", "Bread proofing basket", "Pasta roller", "Spice rack",
    };
    private static final String[] BRANDS = {
        "Maison Dupré", "Küchenwerk", "Nordisk Køkken", "Casa Peña", "Acme Home", "Hearth & Co", "Ölmühle",
        "Riverside Goods",
    };
    private static final String[] TAGS = {"kitchen", "baking", "coffee", "gift", "sale", "new", "eco", "bestseller"};

    private final int[] statuses;
    private final byte[][] bodies;
    private final byte[][] raw;

    private HttpResponses(int[] statuses, byte[][] bodies, byte[][] raw) {
        this.statuses = statuses;
        this.bodies = bodies;
        this.raw = raw;
    }

    /** {@code count} responses, the same for the same arguments. */
    public static HttpResponses generate(long seed, int count, int meanBodyBytes) {
        if (meanBodyBytes < 512) {
            throw new IllegalArgumentException("meanBodyBytes must be at least 512: " + meanBodyBytes);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] statuses = new int[count];
        byte[][] bodies = new byte[count][];
        byte[][] raw = new byte[count][];
        for (int i = 0; i < count; i++) {
            int draw = random.nextInt(100);
            String requestId = Long.toHexString(random.nextLong() | Long.MIN_VALUE);
            String body;
            if (draw < 97) {
                statuses[i] = 200;
                body = productPage(random, requestId, random.nextInt(meanBodyBytes / 2, meanBodyBytes * 3 / 2));
            } else if (draw < 99) {
                statuses[i] = 404;
                body = error(requestId, "not_found", "No product matches the query.");
            } else {
                statuses[i] = 503;
                body = error(requestId, "unavailable", "The search backend is overloaded, retry later.");
            }
            bodies[i] = body.getBytes(StandardCharsets.UTF_8);
            raw[i] = wire(statuses[i], requestId, bodies[i]);
        }
        return new HttpResponses(statuses, bodies, raw);
    }

    public int count() {
        return statuses.length;
    }

    public int status(int i) {
        return statuses[i];
    }

    /** The body as UTF-8 bytes. */
    public byte[] body(int i) {
        return bodies[i];
    }

    /** The whole response as sent on the wire. */
    public byte[] raw(int i) {
        return raw[i];
    }

    private static String productPage(SplittableRandom random, String requestId, int targetBytes) {
        StringBuilder json = new StringBuilder(targetBytes + 512);
        json.append("{\"requestId\":\"").append(requestId).append("\",\"page\":").append(random.nextInt(1, 40))
                .append(",\"pageSize\":20,\"total\":").append(random.nextInt(100, 20_000)).append(",\"items\":[");
        // An item is about 300 bytes; stop at the first one that reaches the target, as a page of results would.
        for (int item = 0; item == 0 || json.length() < targetBytes; item++) {
            if (item > 0) {
                json.append(',');
            }
            appendItem(random, json);
        }
        return json.append("]}").toString();
    }

    private static void appendItem(SplittableRandom random, StringBuilder json) {
        json.append("{\"id\":").append(random.nextLong(1_000_000_000L, 10_000_000_000L))
                .append(",\"sku\":\"SKU-").append(String.format("%06d", random.nextInt(1_000_000)))
                .append("\",\"name\":\"").append(PRODUCTS[random.nextInt(PRODUCTS.length)])
                .append(", ").append(random.nextInt(1, 13)).append(" pieces")
                .append("\",\"brand\":\"").append(BRANDS[random.nextInt(BRANDS.length)])
                .append("\",\"price\":{\"amount\":").append(random.nextInt(199, 29_999) / 100.0)
                .append(",\"currency\":\"EUR\"},\"stock\":").append(random.nextInt(0, 500))
                .append(",\"rating\":").append(random.nextInt(10, 51) / 10.0)
                .append(",\"reviews\":").append(random.nextInt(0, 5_000))
                .append(",\"tags\":[\"").append(TAGS[random.nextInt(TAGS.length)])
                .append("\",\"").append(TAGS[random.nextInt(TAGS.length)])
                .append("\"],\"updatedAt\":\"2024-").append(String.format("%02d-%02dT%02d:%02d:%02dZ",
                        random.nextInt(1, 13), random.nextInt(1, 29), random.nextInt(24), random.nextInt(60),
                        random.nextInt(60)))
                .append("\"}");
    }

    private static String error(String requestId, String code, String message) {
        return "{\"requestId\":\"" + requestId + "\",\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}";
    }

    private static byte[] wire(int status, String requestId, byte[] body) {
        String reason = status == 200 ? "OK" : status == 404 ? "Not Found" : "Service Unavailable";
        String head = "HTTP/1.1 " + status + " " + reason + "\r\n"
                + "Date: Tue, 14 May 2024 09:21:44 GMT\r\n"
                + "Server: nginx/1.25.4\r\n"
                + "Content-Type: application/json; charset=utf-8\r\n"
                + "Vary: Accept-Encoding\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: keep-alive\r\n"
                + "X-Request-Id: " + requestId + "\r\n"
                + "Cache-Control: no-store\r\n"
                + "\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] wire = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, wire, 0, headBytes.length);
        System.arraycopy(body, 0, wire, headBytes.length, body.length);
        return wire;
    }
}
