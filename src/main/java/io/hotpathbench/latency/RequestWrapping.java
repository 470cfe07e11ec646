package io.hotpathbench.latency;

import java.io.IOException;

/**
 * Whether a try/catch surrounds each request, baseline first. The write-up measured its optimized
 * tool without the try/catch (117,123 QPS) and then re-enabled it (118,400 QPS): the change under
 * review is adding the try/catch, so the code without it is the baseline. Both call the same
 * {@link ResponseReader#read} with the same receive buffer shape; no exception is ever thrown on
 * the benchmark's responses.
 */
public enum RequestWrapping {

    /** The request alone: a failure propagates to the caller. */
    PLAIN {
        @Override
        public Requester create() {
            return new Requester() {
                private final byte[] buffer = new byte[ResponseReader.BUFFER_BYTES];

                @Override
                public long send(byte[] response) throws IOException {
                    return ResponseReader.read(response, buffer);
                }
            };
        }
    },

    /** The request inside a try/catch that turns a failure into {@link #FAILED}. */
    TRY_CATCH {
        @Override
        public Requester create() {
            return new Requester() {
                private final byte[] buffer = new byte[ResponseReader.BUFFER_BYTES];

                @Override
                public long send(byte[] response) {
                    try {
                        return ResponseReader.read(response, buffer);
                    } catch (IOException e) {
                        return FAILED;
                    }
                }
            };
        }
    };

    /** What {@code TRY_CATCH} returns for a request that failed. */
    public static final long FAILED = -1;

    /** A requester for one thread: its receive buffer is not shared. */
    public abstract Requester create();
}
