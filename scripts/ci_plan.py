#!/usr/bin/env python3
"""The JMH passes CI makes and the claims each one gates, derived from the technique files.

    python3 scripts/ci_plan.py

Prints one line per `mvn jmh:run` CI must make, tab-separated: the pass name, the claim ids the
gate checks on its results (comma-separated, or `-` for none: an empty field would vanish in a shell's
`read`, which treats consecutive tabs as one), how often the pass is made again when its gate
fails (`retries`, 0 unless the suite says), then the `mvn jmh:run` arguments.
Every claim in scripts/techniques/*.json names its pass (`ci`); a pass with `per_claim` runs once per
claim, on just the benchmark method, params and variants the claim names. .ci/run reads this, so a claim added
to a technique file is gated without touching .ci/run.
"""
from __future__ import annotations

import sys

from hpb import cli, config
from hpb.model import InputError


def plan(suite: config.Suite) -> list:
    """[(pass, [claim ids], [mvn args])] in the order of the suite's passes."""
    out = []
    for name, p in suite.ci_passes.items():
        claims = [(t, c) for t in suite.techniques for c in t.claims if c["ci"] == name]
        if not p.get("per_claim"):
            out.append((name, [c["id"] for _, c in claims], list(p["args"])))
            continue
        for t, c in claims:
            if not c.get("method"):
                raise InputError(f"{t.path}: claim {c['id']}: a claim in the per-claim pass {name!r} must name its method")
            args = [f"-Djmh.include={t.simple_class}.{c['method']}$"]
            for k, v in (c.get("params") or {}).items():
                vals = v if isinstance(v, list) else [v]
                if any(x in ("max", "min") for x in vals):
                    raise InputError(f"{t.path}: claim {c['id']}: a per-claim pass needs explicit values for {k}, not max/min")
                if any("," in x for x in vals):
                    raise InputError(f"{t.path}: claim {c['id']}: {k} value with a comma cannot be passed to JMH's -p")
                args.append(f"-Djmh.p.{k}={','.join(vals)}")
            vp = t.variant_param
            if vp and t.method_pair(c["method"]) is None and vp not in (c.get("params") or {}):
                # just the two variants the claim compares: half the time, spent on more iterations
                args.append(f"-Djmh.p.{vp}={','.join(dict.fromkeys([c['variant'], c['baseline']]))}")
            out.append((name, [c["id"]], args + list(p["args"])))
    return out


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="ci_plan.py", description=__doc__.splitlines()[0])
    ap.parse_args(argv)
    suite = config.load_suite()
    for name, ids, args in plan(suite):
        if any("\t" in x or "\n" in x for x in args):
            raise InputError(f"pass {name}: an argument holds a tab or a newline")
        retries = suite.ci_passes[name].get("retries", 0)
        print("\t".join([name, ",".join(ids) or "-", str(retries), *args]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
