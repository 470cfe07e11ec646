package io.hotpathbench.latency;

import java.io.IOException;
import java.io.InputStream;

/** Reads one response body to its end and returns what the tool keeps of the request. */
public interface BodyHandler {

    RequestOutcome handle(int status, InputStream body) throws IOException;
}
