package io.hotpathbench.writes;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * How an upload's points go into RocksDB: HBase's autoflush on, one write per point
 * ({@code PUT_EACH}, the baseline), or its client write buffer, the upload's points in one
 * {@code WriteBatch} written at once ({@code WRITE_BATCH}). HBase's buffer collects puts across
 * requests until it is full; a batch per upload is what a request handler can batch without holding
 * one request's data for the next, and what a time-series client's "points per request" is.
 */
public enum RocksWrite {
    PUT_EACH {
        @Override
        public PointWriter create(RocksDB db, WriteOptions options, int pointsPerRequest) {
            return new PutEach(db, options);
        }
    },
    WRITE_BATCH {
        @Override
        public PointWriter create(RocksDB db, WriteOptions options, int pointsPerRequest) {
            return new Batched(db, options, pointsPerRequest);
        }
    };

    /** A writer into {@code db} with {@code options} (which it does not close). */
    public abstract PointWriter create(RocksDB db, WriteOptions options, int pointsPerRequest);

    /** One {@code put} per point: a write-ahead log record, a memtable insert and a write group each. */
    static final class PutEach implements PointWriter {
        private final RocksDB db;
        private final WriteOptions options;
        private final byte[] key = new byte[Uploads.KEY_BYTES];
        private final byte[] value = new byte[Uploads.VALUE_BYTES];

        PutEach(RocksDB db, WriteOptions options) {
            this.db = db;
            this.options = options;
        }

        @Override
        public int write(Uploads uploads, long n) throws RocksDBException {
            int points = uploads.pointsPerRequest();
            for (int j = 0; j < points; j++) {
                uploads.key(n, j, key);
                uploads.value(n, j, value);
                db.put(options, key, value);
            }
            return points;
        }

        @Override
        public void close() {
        }
    }

    /**
     * The upload's points copied into one reused {@code WriteBatch}, written with one {@code write}:
     * one log record, one write group; the batch is cleared, keeping its memory, for the next upload.
     */
    static final class Batched implements PointWriter {
        /** A batch's header, and per point its type, two length varints, the key and the value, rounded up. */
        private static final int HEADER_BYTES = 12;
        private static final int BYTES_PER_POINT = Uploads.KEY_BYTES + Uploads.VALUE_BYTES + 4;

        private final RocksDB db;
        private final WriteOptions options;
        private final WriteBatch batch;
        private final byte[] key = new byte[Uploads.KEY_BYTES];
        private final byte[] value = new byte[Uploads.VALUE_BYTES];

        Batched(RocksDB db, WriteOptions options, int pointsPerRequest) {
            this.db = db;
            this.options = options;
            this.batch = new WriteBatch(HEADER_BYTES + pointsPerRequest * BYTES_PER_POINT);
        }

        @Override
        public int write(Uploads uploads, long n) throws RocksDBException {
            int points = uploads.pointsPerRequest();
            for (int j = 0; j < points; j++) {
                uploads.key(n, j, key);
                uploads.value(n, j, value);
                batch.put(key, value);
            }
            db.write(options, batch);
            batch.clear();
            return points;
        }

        @Override
        public void close() {
            batch.close();
        }
    }
}
