"""hotpath-bench's script library: load JMH results, estimate, judge once, format the verdicts.

    model     loading and validating JMH JSON and provenance; the data model; units; machine and boot
    config    the suite settings and the per-technique metadata (scripts/techniques/*.json)
    select    grouping results into compared pairs; selectors
    stats     every statistic once: Student's t, the interval method, trials needed, rank-sum
    forks     each fork's figure (mean or best iteration), pairing by trial, disturbed forks
    machines  figures across boots and machines; the prediction for a new machine
    evidence  which runs are evidence of which code (full runs, code fingerprints, pools)
    verdicts  claims and targets on one run; forks paired by trial
    figures   cited figures (decided, equivalent, undecided), published figures, reproduce, assemble
    rule      the gate's rule and the schedule's counts, from suite.json (twocommit judges by them)
    schedule  what a trials run measures and when a gate's group stops: the plugin asks it via plan.py
    breadth   the gate's rule for every cited figure and claim beside the gated gains
    markdown  number formatting and the one Markdown table writer
    charts    chart rendering (matplotlib, Agg)

Commands (scripts/*.py) import from here and never from each other.
"""
