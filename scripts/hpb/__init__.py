"""hotpath-bench's script library: load JMH results, judge them once, format the verdicts.

    model     loading and validating JMH JSON and provenance; the data model; units
    config    the suite settings and the per-technique metadata (scripts/techniques/*.json)
    select    grouping results into compared pairs; selectors
    stats     ratio intervals, pooling across runs, equivalence
    verdicts  the one engine: claims, targets, published comparisons, regressions, pooled figures
    markdown  number formatting and the one Markdown table writer
    charts    chart rendering (matplotlib, Agg)

Commands (scripts/*.py) import from here and never from each other.
"""
