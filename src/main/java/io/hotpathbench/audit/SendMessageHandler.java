package io.hotpathbench.audit;

import io.hotpathbench.split.IndexOfSplitter;
import io.hotpathbench.split.Splitter;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The write-up's send-message request, the same for every way of writing its audit row: split the
 * line {@code appId|templateId|phone|content} with the suite's splitter, check each word of the
 * content against the keywords loaded when the handler was built (the write-up's
 * {@code @PostConstruct} warm-up), build the audit row and hand it to the {@link AuditLog}. What
 * differs between the variants is only what {@link AuditLog#write} does with it. Safe to share
 * between threads.
 */
public final class SendMessageHandler {

    private final Splitter fields = new IndexOfSplitter("|");
    private final Splitter words = new IndexOfSplitter(" ");
    private final Set<String> keywords;
    private final AuditLog log;

    /** A handler whose keyword list is loaded now, writing its audit rows to {@code log} (null: build rows only). */
    public SendMessageHandler(Collection<String> keywords, AuditLog log) {
        this.keywords = new HashSet<>(keywords);
        this.log = log;
    }

    /** Handles request {@code requestId} ({@code line}) at {@code nowMillis}: its audit row, once handed to the log. */
    public AuditRow send(long requestId, String line, long nowMillis) {
        AuditRow row = audit(requestId, line, nowMillis);
        if (log != null) {
            log.write(row);
        }
        return row;
    }

    /** The audit row of a request, written nowhere. */
    public AuditRow audit(long requestId, String line, long nowMillis) {
        List<String> f = fields.split(line);
        if (f.size() != 4) {
            throw new IllegalArgumentException("expected appId|templateId|phone|content, got " + f.size() + " fields");
        }
        String content = f.get(3);
        String hit = null;
        for (String word : words.split(content)) {
            if (keywords.contains(word)) {
                hit = word;
                break;
            }
        }
        return new AuditRow(requestId, f.get(0), f.get(1), mask(f.get(2)), hit == null ? AuditRow.PASS : AuditRow.BLOCKED,
                hit, content, nowMillis);
    }

    /** 13812345678 -> 138****5678: an audit log keeps no full phone number. */
    static String mask(String phone) {
        if (phone.length() < 8) {
            return "*".repeat(phone.length());
        }
        return phone.substring(0, 3) + "****" + phone.substring(phone.length() - 4);
    }
}
