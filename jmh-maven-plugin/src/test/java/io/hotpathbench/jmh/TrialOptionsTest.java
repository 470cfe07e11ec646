package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How -Djmh.trials, -Djmh.budget, -Djmh.seed, -Djmh.quick and -Djmh.f combine. */
class TrialOptionsTest {

    @Test
    void withoutOptionsTheRunIsTrialsDecidedByClassSettingsAndTheDefaultBudget() {
        JmhOptions o = JmhOptions.parse(Map.of());
        assertFalse(o.jmhForkOrder());
        assertNull(o.trials());
        assertNull(o.budget());
        assertNull(o.seed());
    }

    @Test
    void forksAskForJmhsOwnOrder() {
        assertTrue(JmhOptions.parse(Map.of("jmh.f", "3")).jmhForkOrder());
    }

    @Test
    void quickIsOneTrialUnlessTrialsAreGiven() {
        assertEquals(1, JmhOptions.parse(Map.of("jmh.quick", "")).trials());
        assertEquals(4, JmhOptions.parse(Map.of("jmh.quick", "", "jmh.trials", "4")).trials());
        assertFalse(JmhOptions.parse(Map.of("jmh.quick", "")).jmhForkOrder());
    }

    @Test
    void aQuickTwoCommitRunMakesThreeTrialsSoItsChangesHaveAnInterval() {
        assertEquals(3, JmhOptions.parse(Map.of("jmh.quick", "", "jmh.against", "HEAD~1")).trials());
        assertEquals(2, JmhOptions.parse(Map.of("jmh.quick", "", "jmh.against", "HEAD~1", "jmh.trials", "2")).trials());
    }

    @Test
    void budgetsReadMinutesHoursAndSeconds() {
        assertEquals(Duration.ofMinutes(10), JmhOptions.parse(Map.of("jmh.budget", "10m")).budget());
        assertEquals(Duration.ofHours(1), JmhOptions.parse(Map.of("jmh.budget", "1h")).budget());
        assertEquals(Duration.ofSeconds(600), JmhOptions.parse(Map.of("jmh.budget", "600s")).budget());
    }

    @Test
    void badTrialOptionsFailInOneLine() {
        for (Map<String, String> bad : new Map[] {
            Map.of("jmh.trials", "0"), Map.of("jmh.trials", "x"), Map.of("jmh.budget", "10"),
            Map.of("jmh.budget", "0m"), Map.of("jmh.budget", "ten"), Map.of("jmh.seed", "1.5"),
            Map.of("jmh.f", "2", "jmh.trials", "3"), Map.of("jmh.f", "2", "jmh.budget", "10m")}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhOptions.parse(bad));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains("-Djmh."), e.getMessage());
        }
    }

    @Test
    void theSeedIsKept() {
        assertEquals(-7L, JmhOptions.parse(Map.of("jmh.seed", "-7")).seed());
    }

    @Test
    void againstNamesARefAndRefusesJmhsForkOrder() {
        assertEquals("HEAD~1", JmhOptions.parse(Map.of("jmh.against", "HEAD~1")).against());
        assertNull(JmhOptions.parse(Map.of()).against());
        for (Map<String, String> bad : new Map[] {Map.of("jmh.against", ""), Map.of("jmh.against", "--all"),
            Map.of("jmh.against", "HEAD~1", "jmh.f", "2")}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhOptions.parse(bad));
            assertTrue(e.getMessage().startsWith("-Djmh."), e.getMessage());
        }
    }
}
