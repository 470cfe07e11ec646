package io.hotpathbench.audit;

/**
 * One send request's audit record, about 200 bytes in the table: the request's id, the caller's
 * app and template, the phone number masked, the keyword check's verdict and the keyword it hit
 * (null when none), the message text and when the request was handled.
 */
public record AuditRow(long requestId, String appId, String templateId, String phone, String verdict, String keyword,
                       String content, long loggedAtMillis) {

    /** The verdict of a message that hit no keyword. */
    public static final String PASS = "PASS";
    /** The verdict of a message that hit a keyword. */
    public static final String BLOCKED = "BLOCKED";
}
