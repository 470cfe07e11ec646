package io.hotpathbench.cache;

/** The variants, baseline first; each builds a cache that holds {@code maximumEntries} users. */
public enum FeatureCacheType {
    CAFFEINE_HEAP {
        @Override
        public FeatureCache create(long maximumEntries) {
            return new CaffeineFeatureCache(maximumEntries);
        }
    },
    OHC_OFF_HEAP {
        @Override
        public FeatureCache create(long maximumEntries) {
            return new OhcFeatureCache(maximumEntries);
        }
    },
    OHC_ZERO_COPY {
        @Override
        public FeatureCache create(long maximumEntries) {
            return new OhcZeroCopyFeatureCache(maximumEntries);
        }
    },
    EHCACHE_OFF_HEAP {
        @Override
        public FeatureCache create(long maximumEntries) {
            return new EhcacheFeatureCache(maximumEntries);
        }
    };

    public abstract FeatureCache create(long maximumEntries);
}
