package io.hotpathbench.writes;

import org.rocksdb.WriteOptions;

/**
 * What a write does with RocksDB's write-ahead log: the write-up's HBase knob ({@code Put}'s WAL
 * flag) and what a synced log costs. {@code BUFFERED} is RocksDB's default.
 */
public enum WalMode {
    /** Every write appends to the log and waits for it to reach the disk (fsync): durable at return. */
    SYNC,
    /** Every write appends to the log in the OS's page cache, synced when the OS flushes it: lost on a machine crash, not on a process crash. */
    BUFFERED,
    /** No log: the memtable alone holds a write until it is flushed, lost on any crash (the write-up's "WAL off"). */
    OFF;

    /** Write options for this mode; the caller closes them. */
    public WriteOptions writeOptions() {
        return new WriteOptions().setSync(this == SYNC).setDisableWAL(this == OFF);
    }
}
