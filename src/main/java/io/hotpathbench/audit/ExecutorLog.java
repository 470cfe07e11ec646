package io.hotpathbench.audit;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * The write-up's {@code @Async}: each row becomes a task on a thread pool that inserts it,
 * autocommitted, while the request returns. Built as Spring Boot builds its default
 * {@code applicationTaskExecutor} ({@code ThreadPoolTaskExecutor}: 8 core threads, a maximum of
 * {@code Integer.MAX_VALUE} that a {@code LinkedBlockingQueue} of capacity {@code Integer.MAX_VALUE}
 * never lets it reach, 60 s keep-alive with core threads allowed to time out, threads named
 * {@code task-N}), and a {@code void @Async} method is submitted as Spring submits it: a
 * {@code Callable} through {@code submit}, so each queued row is a {@link FutureTask}. With a
 * bounded queue ({@code ASYNC_BOUNDED}) the pool's maximum is its 8 core threads and a full queue
 * runs the task on the request thread ({@code CallerRunsPolicy}), counted as a caller write.
 */
final class ExecutorLog extends CountingLog {

    /** Spring Boot's {@code spring.task.execution.pool.core-size} default. */
    static final int THREADS = 8;

    private final ThreadPoolExecutor executor;
    private final int capacity;
    private final List<Thread> started = new CopyOnWriteArrayList<>();

    /** {@code capacity} {@code Integer.MAX_VALUE}: Spring Boot's default, unbounded; else bounded, caller-runs. */
    ExecutorLog(DataSource pool, int capacity) {
        super(pool);
        this.capacity = capacity;
        boolean unbounded = capacity == Integer.MAX_VALUE;
        executor = new ThreadPoolExecutor(THREADS, unbounded ? Integer.MAX_VALUE : THREADS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(capacity), threadFactory(), callerRuns());
        executor.allowCoreThreadTimeOut(unbounded);
    }

    @Override
    public void write(AuditRow row) {
        accepted.incrementAndGet();
        executor.submit(task(row));
    }

    /** What {@code submit} wraps in a FutureTask: the insert, with a failure counted as a dropped row. */
    private Callable<Void> task(AuditRow row) {
        return () -> {
            insertCounted(row);
            return null;
        };
    }

    /** {@code CallerRunsPolicy}, counted; after {@link #close()} the row is dropped, counted. */
    private RejectedExecutionHandler callerRuns() {
        return (task, pool) -> {
            if (pool.isShutdown()) {
                drop(1, new IllegalStateException("audit log closed"));
                return;
            }
            callerWrites.incrementAndGet();
            task.run();
        };
    }

    private ThreadFactory threadFactory() {
        AtomicInteger next = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "task-" + next.incrementAndGet());
            t.setDaemon(true);
            started.add(t);
            return t;
        };
    }

    @Override
    public List<Thread> threads() {
        return List.copyOf(started);
    }

    @Override
    public Object backlogOf(Iterator<AuditRow> rows, int count) {
        BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>(Math.max(capacity, count));
        for (int i = 0; i < count; i++) {
            queue.add(new FutureTask<>(task(rows.next())));
        }
        return queue;
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("audit pool still writing " + pending() + " rows after 5 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
