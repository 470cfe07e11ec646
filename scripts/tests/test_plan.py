"""scripts/plan.py: the plugin's schedule and a gate's looks, decided by the scripts' rules (the plugin's
PlanScriptTest holds the other side of the contract)."""
import json
import math
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, I3, SCRIPTS, SPLIT, VALIDATOR

from hpb import config, rule, schedule, twocommit
from hpb.model import InputError, load

TWO_COMMIT = FIXTURES / "real" / "20261124T222738Z-811280e-dirty.json"  # -Djmh.against, split at '::', 3 trials


def configurations(path, sided=False):
    """The configurations a run measured, as the plugin sends them (a two-commit run's side split off)."""
    out = []
    for r in load(path).results:
        params = {k: v for k, v in r.params.items() if k != "side"}
        out.append({"benchmark": r.benchmark, "mode": r.mode, "params": params, "side": r.params.get("side") if sided else None})
    return out


def ask(suite, confs, **options):
    return schedule.schedule({"contract": 1, "configurations": confs, "options": options}, suite)


def named(confs, indices):
    return [(confs[i]["benchmark"].rsplit(".", 1)[1], confs[i]["params"].get("variant"), confs[i]["params"].get("delimiter"),
             confs[i]["side"]) for i in indices]


def run_plan(*args):
    return subprocess.run([sys.executable, str(SCRIPTS / "plan.py"), *map(str, args)], capture_output=True, text=True)


# ---------------------------------------------------------------- schedule: a default run


def test_a_default_run_gives_each_cited_pair_its_trials_first_then_its_group_then_the_rest(suite):
    confs = configurations(I3)
    a = ask(suite, confs)
    assert a["contract"] == 1 and a["gate"] is None
    by_id = {c["id"]: c for c in a["cited"]}
    assert set(by_id) == {"split-2char", "split-first", "validator-shared", "validator-floor"}, \
        "the cited figures whose configurations this selection holds (not the cache's or keys' sizes, nor avaje)"
    two = by_id["split-2char"]
    assert named(confs, [two["variant"], two["baseline"]]) == [("split", "INDEX_OF", "||", None), ("split", "JDK_SPLIT", "||", None)]
    assert two["headline"] and not by_id["split-first"]["headline"]
    g = next(g for g in a["groups"] if g["id"] == two["group"])
    assert len(g["members"]) == 5 and g["min_trials"] == 8 and g["headline"] and g["params"]["delimiter"] == "||"
    p1, whole, rest = g["steps"]
    assert (p1["phase"], p1["priority"], p1["trials"]) == (1, 0, rule.CITED_TRIALS)
    assert sorted(p1["members"]) == sorted([two["variant"], two["baseline"]]), "phase 1 runs just the pair"
    assert (whole["phase"], whole["members"], whole["trials"]) == (2, g["members"], 8 - rule.CITED_TRIALS)
    assert rest["phase"] == 2 and rest["trials"] == rule.CITED_TRIALS
    assert sorted(v for _, v, _, _ in named(confs, rest["members"])) == ["COMMONS_LANG", "GUAVA", "JDK_PATTERN", "JDK_SPLIT"], \
        "the members no figure cites run with the baseline, so each of their forks has a partner in its trial"
    first = next(g for g in a["groups"] if g["id"] == by_id["split-first"]["group"])
    assert first["steps"][0]["priority"] == 1, "a group holding no headline figure comes after the headlines"
    assert len(first["members"]) == 3, "a method pair is one group"
    bar = next(g for g in a["groups"] if g["params"].get("delimiter") == "|" and g["label"].startswith("SplitBenchmark.split "))
    assert bar["cited"] == [] and bar["steps"] == [{"phase": 3, "priority": 0, "members": bar["members"], "trials": 8}]
    validate = next(g for g in a["groups"] if g["label"].startswith("ValidatorBenchmark.validate"))
    assert validate["min_trials"] == 4 and validate["steps"][0]["members"] == validate["members"], \
        "every validate variant here is cited: phase 1 is the whole group"
    for g in a["groups"]:
        for s in g["steps"]:
            assert set(s["members"]) <= set(g["members"]) and s["trials"] > 0


def test_each_configuration_reaches_its_techniques_minimum_and_each_cited_pair_its_three_trials(suite):
    confs = configurations(I3)
    a = ask(suite, confs)
    for g in a["groups"]:
        forks = {m: sum(s["trials"] for s in g["steps"] if m in s["members"]) for m in g["members"]}
        assert min(forks.values()) >= g["min_trials"], g["label"]
    for c in a["cited"]:
        g = next(g for g in a["groups"] if g["id"] == c["group"])
        together = sum(s["trials"] for s in g["steps"] if {c["variant"], c["baseline"]} <= set(s["members"]))
        assert together >= rule.CITED_TRIALS, c["id"]


def test_the_minimum_comes_from_the_technique_file_and_its_methods_own(suite, tmp_path):
    t = suite.by_id("validation")
    assert t.min_trials("validate") == 4 and t.min_trials("coldStart") == 10
    assert suite.by_id("split").min_trials("split") == 8
    techs = tmp_path / "techniques"
    shutil.copytree(SCRIPTS / "techniques", techs)
    data = json.loads((techs / "split.json").read_text())
    del data["min_trials"]
    (techs / "split.json").write_text(json.dumps(data))
    bare = config.load_suite(techniques_dir=techs)
    assert bare.by_id("split").min_trials("split") is None
    a = ask(bare, configurations(I3))
    assert {g["min_trials"] for g in a["groups"] if g["label"].startswith("SplitBenchmark")} == {rule.MIN_TRIALS}, \
        "a technique without min_trials takes suite.json's schedule.min_trials"


@pytest.mark.parametrize("bad,needle", [
    ({"trials": 0, "why": "w"}, "expected a positive whole number"),
    ({"trials": 4}, "missing 'why'"),
    ({"trials": 4, "why": "w", "methods": {"split": 2.5}}, "min_trials.methods.split"),
    ({"trials": 4, "why": "w", "methods": ["split"]}, "expected an object"),
    ({"trials": 4, "why": "w", "forks": 3}, "unknown key 'forks'"),
])
def test_a_bad_min_trials_is_bad_input(tmp_path, bad, needle):
    techs = tmp_path / "techniques"
    shutil.copytree(SCRIPTS / "techniques", techs)
    data = json.loads((techs / "split.json").read_text())
    data["min_trials"] = bad
    (techs / "split.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=needle):
        config.load_suite(techniques_dir=techs)


def test_fixed_trials_are_one_step_of_every_group_and_with_a_budget_every_groups_minimum(suite):
    confs = configurations(I3)
    fixed = ask(suite, confs, trials=2)
    assert all(g["steps"] == [{"phase": 1, "priority": 0, "members": g["members"], "trials": 2}] for g in fixed["groups"])
    budgeted = ask(suite, confs, trials=5, budget=True)
    assert {g["min_trials"] for g in budgeted["groups"]} == {5}
    assert {s["phase"] for g in budgeted["groups"] for s in g["steps"]} == {1, 2, 3}


def test_a_configurations_own_warm_up_comes_from_its_technique_file(suite):
    confs = configurations(I3)
    a = ask(suite, confs)
    assert [(named(confs, [w["configuration"]])[0][1], w["iterations"], w["time"]) for w in a["warmups"]] == [("SHARED", 5, "2s")]
    assert a["warmups"][0]["label"] == "ValidatorBenchmark.validate [variant=SHARED]: 5 x 2s"


# ---------------------------------------------------------------- schedule: -Djmh.claims


def test_claims_take_claim_ids_and_cited_figure_ids_and_select_just_what_they_compare(suite):
    confs = configurations(I3)
    a = ask(suite, confs, claims=["split-first", "validator-shared-50x"])
    measured = sorted(named(confs, [m for g in a["groups"] for m in g["members"]]))
    assert measured == [("jdkSplitFirst", None, "||", None), ("splitFirst", None, "||", None),
                        ("validate", "PER_CALL", None, None), ("validate", "SHARED", None, None)]
    keys = ask(suite, confs, claims=["keys-long-bytes-0.3x"])
    sizes = {confs[m]["params"]["size"] for g in keys["groups"] for m in g["members"]}
    assert sizes == {"1000000"}, "size=max: the largest the run can measure, as the judge picks it (a pass measured every size)"


def test_an_unknown_id_is_one_line_naming_the_known_ones(suite, tmp_path):
    with pytest.raises(InputError) as e:
        ask(suite, configurations(I3), claims=["split-2char", "no-such"])
    assert "no-such" in str(e.value) and "split-indexof-2char-2x" in str(e.value) and "validator-cold" in str(e.value)
    with pytest.raises(InputError, match="no configuration the ids name"):
        ask(suite, configurations(I3), claims=["redis-mget"])
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"contract": 1, "configurations": configurations(I3), "options": {"claims": ["no-such"]}}))
    p = run_plan("schedule", req, tmp_path / "ans.json")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "no claim or cited figure no-such" in p.stderr
    assert "Traceback" not in p.stderr and not (tmp_path / "ans.json").exists()


# ---------------------------------------------------------------- schedule: a gate


def test_a_gate_schedules_the_gain_claims_configurations_on_both_sides_at_the_rules_looks(suite):
    confs = configurations(TWO_COMMIT, sided=True)
    a = ask(suite, confs, gate=True, gate_figure="best")
    assert a["gate"] == {"looks": list(rule.LOOKS), "alphaPerLook": list(rule.SPEND),
                         "levelPerLook": [1 - x for x in rule.SPEND], "marginPct": rule.MARGIN_PCT, "alpha": rule.ALPHA,
                         "forkFigure": "best"}
    (g,) = a["groups"]
    assert sorted(named(confs, g["members"])) == [("split", v, "::", s) for v in ("INDEX_OF", "JDK_SPLIT") for s in ("base", "head")]
    assert g["checks"] == ["split-indexof-2char-2x"]
    assert g["steps"] == [{"phase": 1, "priority": 0, "members": g["members"], "trials": rule.LOOKS[-1]}]
    one = ask(suite, confs, gate=True, trials=7)
    assert one["gate"]["looks"] == [7] and one["gate"]["alphaPerLook"] == [rule.ALPHA]
    assert twocommit.Rule((7,), 20, 0.05, (0.05,)).level_at(7) == pytest.approx(0.95)
    with pytest.raises(InputError, match="two commits"):
        ask(suite, configurations(I3), gate=True)


def test_a_two_commit_run_without_the_gate_samples_every_group_whole(suite):
    confs = configurations(TWO_COMMIT, sided=True)
    (g,) = ask(suite, confs)["groups"]
    assert len(g["members"]) == 10, "each configuration on both sides, one group: they share the minutes"
    assert [(s["phase"], s["members"] == g["members"], s["trials"]) for s in g["steps"]] == [(1, True, 3), (2, True, 5)]


def test_a_request_of_another_contract_is_refused(suite, tmp_path):
    with pytest.raises(InputError, match="contract 2"):
        schedule.schedule({"contract": 2, "configurations": [], "options": {}}, suite)
    req = tmp_path / "req.json"
    req.write_text(json.dumps({"contract": 2}))
    p = run_plan("look", req, tmp_path / "ans.json")
    assert p.returncode == 2 and "speaks contract 1" in p.stderr and "Traceback" not in p.stderr


# ---------------------------------------------------------------- look


def gate_run(tmp_path, suite, edit=None, looks=None):
    """The two-commit fixture as a -Djmh.gate run's interim result: its provenance carries the rule
    plan.py gave (at `looks`); `edit` changes head's INDEX_OF forks (one factor per trial), or, a dict,
    each named variant's."""
    dst = tmp_path / TWO_COMMIT.name
    data = json.loads(TWO_COMMIT.read_text())
    edits = edit if isinstance(edit, dict) else {"INDEX_OF": edit} if edit else {}
    for variant, edit in edits.items():
        for r in data:
            if r["params"].get("side") == "head" and r["params"].get("variant") == variant:
                r["primaryMetric"]["rawData"] = [[x * f for x in fork] for fork, f in zip(r["primaryMetric"]["rawData"], edit)]
                means = [sum(f) / len(f) for f in r["primaryMetric"]["rawData"]]
                r["primaryMetric"]["score"] = sum(means) / len(means)
                r["primaryMetric"]["scoreError"] = "NaN"
                r["primaryMetric"]["scoreConfidence"] = [r["primaryMetric"]["score"]] * 2
    dst.write_text(json.dumps(data))
    prov = json.loads(TWO_COMMIT.with_name(TWO_COMMIT.name[:-5] + ".provenance.json").read_text())
    g = ask(suite, configurations(TWO_COMMIT, sided=True), gate=True)["gate"]
    if looks:
        g.update(looks=looks, alphaPerLook=[0.05 / len(looks)] * len(looks))
    prov["gate"] = g
    dst.with_name(dst.name[:-5] + ".provenance.json").write_text(json.dumps(prov))
    return dst


def check_of(answer, claim="split-indexof-2char-2x"):
    """The gated claim's gain check among the look's checks (its time and allocation rows are others)."""
    (c,) = [c for c in answer["checks"] if c["id"] == claim]
    return c


def test_a_look_judges_each_check_by_the_rule_and_keeps_open_only_what_an_undecided_check_needs(suite, tmp_path):
    path = gate_run(tmp_path, suite)
    answer = schedule.look({"contract": 1, "result": str(path)}, suite)
    c = check_of(answer)
    run = load(path)
    by = twocommit.sides(run)
    ((params, d),) = twocommit.gain_logs(by, *next((t, x) for t, x in twocommit.gained_pairs(suite) if x["id"] == c["id"]), suite)
    outcome, _ = twocommit.decide(list(d.values()), twocommit.rule_of(run))
    assert (c["id"], c["n"], c["outcome"], c["decided"]) == ("split-indexof-2char-2x", 3, outcome, outcome != "inconclusive")
    assert c["params"]["delimiter"] == "::"
    assert sorted((k["params"]["variant"], k["side"]) for k in c["configurations"]) == \
        [("INDEX_OF", "base"), ("INDEX_OF", "head"), ("JDK_SPLIT", "base"), ("JDK_SPLIT", "head")]
    assert answer["open"] == ([] if c["decided"] else c["configurations"])


def test_a_look_keeps_a_noisy_check_open_and_closes_a_clear_loss(suite, tmp_path):
    noisy = schedule.look({"contract": 1, "result": str(gate_run(tmp_path, suite, edit=[1.0, 0.55, 1.3]))}, suite)
    assert check_of(noisy)["outcome"] == "inconclusive" and not check_of(noisy)["decided"]
    assert len(noisy["open"]) >= 4 and all(k["side"] in ("base", "head") and "side" not in k["params"] for k in noisy["open"])
    lost = schedule.look({"contract": 1, "result": str(gate_run(tmp_path, suite, edit=[0.5, 0.5, 0.5], looks=[3]))}, suite)
    assert check_of(lost)["outcome"] == "regression" and lost["open"] == []


def test_a_look_ends_the_run_once_a_check_is_shown_to_fail(suite, tmp_path):
    """A loss shown beyond its threshold fails the gate whatever the other checks would say: nothing stays
    open for them, though the run is not at its last look (a failed check used to hold its group ~15 min)."""
    edit = {"INDEX_OF": [0.5, 0.5, 0.5], "JDK_SPLIT": [1.0, 0.55, 1.3]}  # one clear loss, one noisy row
    answer = schedule.look({"contract": 1, "result": str(gate_run(tmp_path, suite, edit=edit, looks=[3, 6]))}, suite)
    assert any(c["decided"] and c["outcome"] == "regression" for c in answer["checks"])
    assert any(not c["decided"] for c in answer["checks"]), "a check that would have held the run open"
    assert answer["open"] == []
    same = schedule.look({"contract": 1, "result": str(gate_run(tmp_path, suite, edit=[1.0, 0.55, 1.3], looks=[3, 6]))}, suite)
    assert not any(c["decided"] and c["outcome"] == "regression" for c in same["checks"]) and same["open"], \
        "a noisy unchanged check at an early look stays open"


def test_a_look_through_the_command_writes_the_contracts_answer(suite, tmp_path):
    req = tmp_path / "look.json"
    req.write_text(json.dumps({"contract": 1, "result": str(gate_run(tmp_path, suite))}))
    p = run_plan("look", req, tmp_path / "answer.json")
    assert p.returncode == 0, p.stderr
    answer = json.loads((tmp_path / "answer.json").read_text())
    assert answer["contract"] == 1 and set(answer) == {"contract", "open", "checks"}
    assert set(check_of(answer)) == {"id", "params", "decided", "outcome", "n", "configurations"}


def test_a_look_on_the_fast_state_needs_forks_of_many_iterations(suite, tmp_path):
    path = gate_run(tmp_path, suite)
    prov_path = path.with_name(path.name[:-5] + ".provenance.json")
    prov = json.loads(prov_path.read_text())
    prov["gate"]["forkFigure"] = "best"
    prov_path.write_text(json.dumps(prov))
    with pytest.raises(InputError, match="fast-state figure needs at least"):
        schedule.look({"contract": 1, "result": str(path)}, suite)


# ---------------------------------------------------------------- the rule's numbers live in suite.json


def test_the_gates_constants_are_suite_jsons(suite):
    r = suite.raw["rule"]
    assert twocommit.LOOKS == tuple(r["looks"]) and twocommit.SPEND == tuple(r["spend"])
    assert (twocommit.MARGIN_PCT, twocommit.ALPHA, twocommit.TIME_ALPHA) == (r["margin_pct"], r["alpha"], r["time_alpha"])
    assert twocommit.FAST_STATE_MIN_ITERATIONS == r["fast_state_min_iterations"]
    assert "alloc_alpha" not in r, "allocation is the breadth rule's (suite.json breadth), written once"
    for k in rule.RULE_KEYS:
        assert r[k + "_why"].strip(), f"rule.{k} says why"


@pytest.mark.parametrize("edit,needle", [
    (lambda r: r.update(spend=[0.03, 0.03, 0.03]), "summing to at most alpha"),
    (lambda r: r.update(looks=[10, 5, 20]), "rising trial counts"),
    (lambda r: r.update(looks=[1, 5, 20]), "at least 2"),
    (lambda r: r.update(spend=[0.05]), "one share of alpha per look"),
    (lambda r: r.pop("margin_pct_why"), "margin_pct_why"),
    (lambda r: r.update(alpha=5), "between 0 and 1"),
    (lambda r: r.update(lookz=[5]), "unknown key 'lookz'"),
])
def test_a_rule_that_spends_more_than_alpha_or_whose_looks_do_not_rise_is_refused(tmp_path, edit, needle):
    d = json.loads((SCRIPTS / "suite.json").read_text())
    edit(d["rule"])
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(d))
    with pytest.raises(InputError, match=needle):
        config.load_suite(path)


def test_each_look_is_judged_at_one_minus_the_alpha_it_spends_and_a_look_brought_forward_at_the_stricter():
    gate = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    assert [gate.level_at(n) for n in (3, 5, 7, 10, 15, 20, 25)] == pytest.approx([0.9875, 0.9875, 0.9875, 0.9875, 0.9875, 0.975, 0.975])
    falling = twocommit.Rule((5, 10), 20, 0.05, (0.03, 0.01))
    assert falling.level_at(7) == pytest.approx(0.99), "a later look that spends less: its own, the stricter"
    # 0.9x at 5 trials whose 95% interval is [0.81, 1.0]: above the 0.8 bar at level 0.975, not at 0.9875
    sd = math.log(0.9 / 0.81) * math.sqrt(5) / 2.7764451
    logs = [math.log(0.9) + sd * z / math.sqrt(2.5) for z in (-2, -1, 0, 1, 2)]
    outcome, fig = twocommit.decide(logs, twocommit.Rule((5, 10), 20, 0.05, (0.025, 0.025)))
    assert outcome == "pass" and fig.lo == pytest.approx(0.81, rel=1e-4) and fig.hi == pytest.approx(1.0, rel=1e-4)
    assert twocommit.decide(logs, twocommit.Rule((5, 10, 15, 20), 20, 0.05))[0] == "inconclusive"
    assert twocommit.decide(logs, gate)[0] == "inconclusive", "the gate's first look spends a quarter of alpha"
