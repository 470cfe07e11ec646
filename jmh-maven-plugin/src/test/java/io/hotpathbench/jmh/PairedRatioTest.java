package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRatioTest {

    @Test
    void tQuantilesMatchTheTable() {
        assertEquals(12.706, PairedRatio.t975(1), 1e-3);
        assertEquals(2.776, PairedRatio.t975(4), 1e-3);
        assertEquals(2.042, PairedRatio.t975(30), 1e-3);
        assertEquals(2.021, PairedRatio.t975(40), 2e-3);
        assertEquals(2.000, PairedRatio.t975(60), 2e-3);
        assertEquals(1.984, PairedRatio.t975(100), 2e-3);
    }

    @Test
    void theRatioIsTheGeometricMeanOfPerTrialRatiosWithATIntervalOnTheirLogs() {
        // Per-trial ratios 2, 2.5, 3, 2.5: logs' mean and sd by hand.
        List<Double> a = List.of(2.0, 5.0, 3.0, 10.0);
        List<Double> b = List.of(1.0, 2.0, 1.0, 4.0);
        PairedRatio r = PairedRatio.of(a, b);
        double[] logs = {Math.log(2), Math.log(2.5), Math.log(3), Math.log(2.5)};
        double mean = (logs[0] + logs[1] + logs[2] + logs[3]) / 4;
        double ss = 0;
        for (double l : logs) {
            ss += (l - mean) * (l - mean);
        }
        double half = 3.1824 * Math.sqrt(ss / 3) / 2;
        assertEquals(4, r.n());
        assertEquals(Math.exp(mean), r.ratio(), 1e-12);
        assertEquals(Math.exp(mean - half), r.low(), 1e-9);
        assertEquals(Math.exp(mean + half), r.high(), 1e-9);
    }

    @Test
    void pairingCancelsWhatBothSidesOfATrialShare() {
        // The machine halves its speed in trials 3 and 4: each side alone varies 2x, the ratio not at all.
        PairedRatio r = PairedRatio.of(List.of(3.0, 3.0, 1.5, 1.5), List.of(1.0, 1.0, 0.5, 0.5));
        assertEquals(3.0, r.ratio(), 1e-12);
        assertEquals(1.0, r.highOverLow(), 1e-12);
    }

    @Test
    void oneTrialHasNoInterval() {
        PairedRatio r = PairedRatio.of(List.of(2.0), List.of(1.0));
        assertEquals(2.0, r.ratio(), 1e-12);
        assertTrue(Double.isNaN(r.low()));
        assertFalse(r.within(100));
    }

    @Test
    void tenPercentMeansHighOverLowOf1point22() {
        assertEquals(1.1 / 0.9, PairedRatio.target(10), 1e-12);
        assertEquals(1.05 / 0.95, PairedRatio.target(5), 1e-12);
    }

    @Test
    void theTQuantileAtAnyLookLevelMatchesTheTables() {
        // one look: 0.95; two: 0.975 (the table t975 holds); four: 0.9875
        org.junit.jupiter.api.Assertions.assertEquals(2.1318, PairedRatio.tQuantile(0.95, 4), 1e-4);
        org.junit.jupiter.api.Assertions.assertEquals(1.6973, PairedRatio.tQuantile(0.95, 30), 1e-4);
        org.junit.jupiter.api.Assertions.assertEquals(1.6839, PairedRatio.tQuantile(0.95, 40), 1e-4);
        org.junit.jupiter.api.Assertions.assertEquals(3.4954, PairedRatio.tQuantile(0.9875, 4), 1e-4);
        org.junit.jupiter.api.Assertions.assertEquals(2.6850, PairedRatio.tQuantile(0.9875, 9), 1e-4);
        for (int df = 1; df <= 30; df++) {
            org.junit.jupiter.api.Assertions.assertEquals(PairedRatio.t975(df), PairedRatio.tQuantile(0.975, df), 1e-4);
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> PairedRatio.tQuantile(0.5, 4));
    }
}
