package io.hotpathbench.latency;

import java.io.IOException;

/**
 * The client side of one request once the response bytes have arrived: parse the status line,
 * scan the headers for {@code Content-Length}, then drain the body through a receive buffer in
 * buffer-sized reads, as a socket read loop does. Allocates nothing; a malformed response throws
 * {@link IOException}, which the benchmark's responses never are.
 */
public final class ResponseReader {

    /** The receive buffer a caller passes to {@link #read}. */
    public static final int BUFFER_BYTES = 1024;

    private static final byte[] HTTP_1 = {'H', 'T', 'T', 'P', '/', '1', '.'};
    private static final byte[] CONTENT_LENGTH = {'c', 'o', 'n', 't', 'e', 'n', 't', '-', 'l', 'e', 'n', 'g', 't', 'h'};

    private ResponseReader() {
    }

    /**
     * The status and the body length of {@code response}, packed as {@code status << 32 | length}
     * (see {@link #status} and {@link #length}); the body passes through {@code buffer}.
     */
    public static long read(byte[] response, byte[] buffer) throws IOException {
        if (response.length < 14 || !startsWith(response, HTTP_1) || response[8] != ' ') {
            throw new IOException("not an HTTP/1.x status line");
        }
        int status = digit(response[9]) * 100 + digit(response[10]) * 10 + digit(response[11]);
        int line = lineEnd(response, 12) + 2;
        int contentLength = -1;
        for (int end = lineEnd(response, line); end != line; end = lineEnd(response, line)) {
            if (isHeader(response, line, end, CONTENT_LENGTH)) {
                contentLength = decimal(response, line + CONTENT_LENGTH.length + 1, end);
            }
            line = end + 2;
        }
        int body = line + 2;
        if (contentLength < 0) {
            throw new IOException("no Content-Length");
        }
        if (response.length - body != contentLength) {
            throw new IOException("body of " + (response.length - body) + " bytes, Content-Length " + contentLength);
        }
        int length = 0;
        while (length < contentLength) {
            int n = Math.min(buffer.length, contentLength - length);
            System.arraycopy(response, body + length, buffer, 0, n);
            length += n;
        }
        return (long) status << 32 | length;
    }

    public static int status(long read) {
        return (int) (read >>> 32);
    }

    public static int length(long read) {
        return (int) read;
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int digit(byte b) throws IOException {
        if (b < '0' || b > '9') {
            throw new IOException("not a digit: " + (char) b);
        }
        return b - '0';
    }

    /** The index of the CR of the first CRLF at or after {@code from}. */
    private static int lineEnd(byte[] bytes, int from) throws IOException {
        for (int i = from; i < bytes.length - 1; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        throw new IOException("header line without CRLF");
    }

    /** Whether the line [from, end) is the header {@code lowerName}, matched without regard to case. */
    private static boolean isHeader(byte[] bytes, int from, int end, byte[] lowerName) {
        if (end - from <= lowerName.length || bytes[from + lowerName.length] != ':') {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++) {
            // Setting bit 5 lower-cases an ASCII letter and leaves '-' as it is.
            if ((bytes[from + i] | 0x20) != lowerName[i]) {
                return false;
            }
        }
        return true;
    }

    /** The decimal in [from, end), spaces and tabs around it ignored. */
    private static int decimal(byte[] bytes, int from, int end) throws IOException {
        while (from < end && (bytes[from] == ' ' || bytes[from] == '\t')) {
            from++;
        }
        while (end > from && (bytes[end - 1] == ' ' || bytes[end - 1] == '\t')) {
            end--;
        }
        if (from == end || end - from > 9) {
            throw new IOException("Content-Length is not a length");
        }
        int value = 0;
        for (int i = from; i < end; i++) {
            value = value * 10 + digit(bytes[i]);
        }
        return value;
    }
}
