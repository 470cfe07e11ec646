package io.hotpathbench.audit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Seeded send requests in the write-up's form, {@code appId|templateId|phone|content} (one line per
 * request, as the message platform's API took them), and the keyword list the content is checked
 * against. The content is one of four message templates with its numbers filled in and a few
 * words of free text after it, 90-150 characters; about one message in twenty carries a keyword.
 * The same seed gives the same requests and keywords.
 */
public final class MessageRequests {

    /** Keywords in the list, loaded at set-up as the write-up's service loaded its lists at start. */
    public static final int KEYWORDS = 1_000;
    /** Messages per thousand that carry a keyword. */
    static final int BLOCKED_PER_MILLE = 50;
    private static final int APPS = 200;
    private static final int WORDS = 2_000;
    private static final String[] TEMPLATES = {
        "Your verification code is %06d. It expires in 5 minutes. Do not share it with anyone.",
        "Order %d has shipped and will arrive within %d days. Track it in the app.",
        "Your balance is %d.%02d after your last payment. Reply STOP to end these alerts.",
        "Welcome aboard. Your member number is %d and your first %d days are free.",
    };

    private final List<String> keywords;
    private final String[] lines;

    /** {@code count} requests and {@link #KEYWORDS} keywords drawn from {@code seed}. */
    public MessageRequests(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<String> taken = new HashSet<>();
        keywords = new ArrayList<>(KEYWORDS);
        while (keywords.size() < KEYWORDS) {
            String w = word(random);
            if (taken.add(w)) {
                keywords.add(w);
            }
        }
        List<String> vocabulary = new ArrayList<>(WORDS);
        while (vocabulary.size() < WORDS) {
            String w = word(random);
            if (taken.add(w)) {
                vocabulary.add(w);
            }
        }
        lines = new String[count];
        for (int i = 0; i < count; i++) {
            int app = random.nextInt(APPS);
            int template = random.nextInt(TEMPLATES.length);
            String phone = "1" + (3 + random.nextInt(7)) + String.format(Locale.ROOT, "%09d", random.nextInt(1_000_000_000));
            StringBuilder content = new StringBuilder(String.format(Locale.ROOT, TEMPLATES[template],
                    random.nextInt(1_000_000), 1 + random.nextInt(99)));
            int extra = 2 + random.nextInt(6);
            int keywordAt = random.nextInt(1_000) < BLOCKED_PER_MILLE ? random.nextInt(extra) : -1;
            for (int w = 0; w < extra; w++) {
                content.append(' ').append(w == keywordAt ? keywords.get(random.nextInt(KEYWORDS)) : vocabulary.get(random.nextInt(WORDS)));
            }
            lines[i] = String.format(Locale.ROOT, "app-%04d|tpl-%02d%04d|%s|%s", app, template, app, phone, content);
        }
    }

    /** The keyword list. */
    public List<String> keywords() {
        return keywords;
    }

    /** The request lines, in order. */
    public String[] lines() {
        return lines.clone();
    }

    /** A lower-case word of 4-10 letters. */
    private static String word(SplittableRandom random) {
        char[] w = new char[4 + random.nextInt(7)];
        for (int i = 0; i < w.length; i++) {
            w[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(w);
    }
}
