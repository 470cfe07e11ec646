package io.hotpathbench.latency;

import java.io.IOException;

/** Handles one request's response; the two implementations differ only in a try/catch around it. */
public interface Requester {

    /** What {@link ResponseReader#read} returns for {@code response}. */
    long send(byte[] response) throws IOException;
}
