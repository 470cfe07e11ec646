package io.hotpathbench.latency;

/**
 * What a load generator keeps of one request: its status, its body's length in bytes, and the body
 * decoded as a {@code String} when the tool keeps it ({@code null} when it does not).
 */
public record RequestOutcome(int status, int length, String body) {
}
