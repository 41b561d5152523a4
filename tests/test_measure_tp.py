"""Article 2 against PyTorch's own tensor parallelism (measure/tp_layer.py, tp_analysis.py,
tp_worker.py): what the split layer communicates, counted by CommDebugMode on PyTorch's fake
process group for t = 2 and 4, against counts derived here by hand from b, s, h, d and t; the
record's schema; the analysis against independent arithmetic; and a quick run on two gloo
ranks, whose split layer must compute what the whole layer computes.

The counting and the run need torch; like tests/test_measure.py they skip without it, unless
MEASURE_REQUIRED=1 (set by .ci/run).
"""
import copy
import json
import os
import pathlib
import subprocess
import sys

import pytest

from measure import analysis, tp_analysis
from test_measure import need_torch   # the module pytest imported, not a second copy of it

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A small layer: b = 2, s = 8, h = 64 (8 heads of 8), float32: a message is b·s·h·d bytes.
B, S, H, D = 2, 8, 64, 4
MESSAGE = B * S * H * D     # 4096 bytes


def counted(t, sequence_parallel):
    need_torch()
    from measure import tp_layer
    with tp_layer.fake_group(t):
        return tp_layer.counted(B, S, H, t, sequence_parallel)


@pytest.mark.parametrize("t", [2, 4])
def test_megatron_tensor_parallelism_issues_the_articles_four_allreduces(t):
    """By hand (Shoeybi et al. 2019): forward, one all-reduce after each row-split matrix
    (attention output, MLP down); backward, one after each column-split matrix (the input
    gradients of QKV and MLP up). Each is the whole (b, s, h) activation, for every t."""
    events = counted(t, False)
    assert [(e["pass"], e["kind"], e["module"]) for e in events] == [
        ("forward", "all_reduce", "Layer.attn.out"), ("forward", "all_reduce", "Layer.mlp.down"),
        ("backward", "all_reduce", "Layer.mlp.up"), ("backward", "all_reduce", "Layer.attn.qkv")]
    assert all(e["in_bytes"] == e["out_bytes"] == MESSAGE for e in events)


@pytest.mark.parametrize("t", [2, 4])
def test_sequence_parallelism_turns_each_allreduce_into_an_allgather_and_a_reduce_scatter(t):
    """By hand (Korthikanti et al. 2022): before each column-split matrix an all-gather of the
    sequence shards (b·s·h·d/t bytes in, b·s·h·d out), after each row-split one a
    reduce-scatter (the reverse); the backward pass mirrors them."""
    events = counted(t, True)
    gather = ("all_gather_into_tensor", MESSAGE // t, MESSAGE)
    scatter = ("reduce_scatter_tensor", MESSAGE, MESSAGE // t)
    assert [(e["pass"], e["module"], (e["kind"], e["in_bytes"], e["out_bytes"]))
            for e in events] == [
        ("forward", "Layer.attn.qkv", gather), ("forward", "Layer.attn.out", scatter),
        ("forward", "Layer.mlp.up", gather), ("forward", "Layer.mlp.down", scatter),
        ("backward", "Layer.mlp.down", gather), ("backward", "Layer.mlp.up", scatter),
        ("backward", "Layer.attn.out", gather), ("backward", "Layer.attn.qkv", scatter)]


# ---- the analysis, on a synthetic record -------------------------------------------------------

def synthetic(t=2):
    """A record as the worker writes it, with the counts derived above and round timings."""
    allreduce = lambda p, m: {"kind": "all_reduce", "module": m, "pass": p,
                              "in_bytes": MESSAGE, "out_bytes": MESSAGE}
    gather = lambda p, m: {"kind": "all_gather_into_tensor", "module": m, "pass": p,
                           "in_bytes": MESSAGE // t, "out_bytes": MESSAGE}
    scatter = lambda p, m: {"kind": "reduce_scatter_tensor", "module": m, "pass": p,
                            "in_bytes": MESSAGE, "out_bytes": MESSAGE // t}
    env = {key: "x" for key in ("host", "device", "device_name", "backend", "torch_version",
                                "python_version", "platform", "date")}
    env |= {"cores_visible": 2, "threads_per_rank": 1, "world_size": t, "nodes": 1,
            "interop_threads": 2, "pinned_cores_rank0": None, "gpu": None}
    return {"schema": tp_analysis.SCHEMA, "environment": env,
            "protocol": {"batch": B, "seq_len": S, "hidden": [64, 128], "count_hidden": H,
                         "token_hidden": H, "token_seq_lens": [S, 4 * S],
                         "warmup": 1, "repeats": 3, "dtype": "float32", "bytes_per_value": D,
                         "heads": 8, "head_width": 128, "min_heads": 8, "quick": True},
            "correctness": {plan: {"output": 0.0, "input_grad": 0.0} for plan in ("tp", "sp")},
            "collectives": {
                "tp": [allreduce("forward", "a"), allreduce("forward", "b"),
                       allreduce("backward", "c"), allreduce("backward", "d")],
                "sp": [f(p, "m") for p in ("forward", "backward") for f in (gather, scatter)] * 2},
            "peak": {"flops_per_s": 1e11, "bandwidth_bytes_per_s": 1e9, "matmul_ms": 1.0,
                     "allreduce_ms": 1.0},
            "sweep": {"hidden": [64, 128], "one_ms": [10.0, 30.0], "one_all_threads_ms": [6.0, 16.0],
                      "tp_ms": [8.0, 20.0], "comm_ms": [2.0, 4.0], "rest_ms": [6.0, 16.0],
                      "rest_p10_ms": [5.0, 15.0], "rest_p90_ms": [7.0, 17.0]},
            "token_sweep": {"hidden": H, "batch": B, "seq_len": [S, 4 * S],
                            "one_ms": [10.0, 30.0], "one_all_threads_ms": [6.0, 16.0],
                            "tp_ms": [8.0, 20.0], "comm_ms": [2.0, 4.0], "rest_ms": [6.0, 16.0],
                            "rest_p10_ms": [5.0, 15.0], "rest_p90_ms": [7.0, 17.0]}}


@pytest.mark.parametrize("t", [2, 4])
def test_the_analysis_counts_the_bytes_one_device_sends_by_hand(t):
    """Ring: an all-reduce sends 2(t−1)/t of its message; an all-gather or a reduce-scatter
    (t−1)/t of the whole tensor. Four all-reduces: 8·(t−1)/t·b·s·h·d (Narayanan et al. 2021);
    eight gathers and scatters with sequence parallelism: the same."""
    counts = tp_analysis.counts_against_article(synthetic(t))
    by_hand = 8 * (t - 1) / t * MESSAGE
    assert counts["article"] == {"count": 4, "message_bytes": MESSAGE,
                                 "sent_per_device_bytes": pytest.approx(by_hand)}
    assert counts["tp"]["sent_per_device_bytes"] == pytest.approx(by_hand)
    assert counts["sp"]["sent_per_device_bytes"] == pytest.approx(by_hand)
    assert counts["tp_agrees"] and counts["sp_same_volume"]


@pytest.mark.parametrize("change", ["one more", "half the bytes", "a gather instead"])
def test_a_count_that_differs_from_the_article_is_reported_as_disagreeing(change):
    record = synthetic()
    events = record["collectives"]["tp"]
    if change == "one more":
        events.append(dict(events[0]))
    elif change == "half the bytes":
        events[1] |= {"in_bytes": MESSAGE // 2, "out_bytes": MESSAGE // 2}
    else:
        events[2]["kind"] = "all_gather_into_tensor"
    assert tp_analysis.counts_against_article(record)["tp_agrees"] is False


@pytest.mark.parametrize("change, wrong", [(None, set()), ("one more", {"tp_layer_collectives"}),
                                           ("half the bytes", {"tp_layer_message_bytes"})])
def test_the_ledger_checks_the_articles_count_against_pytorchs(change, wrong):
    """Article 2 states 4 collectives per layer, each of b·s·h·d bytes: the ledger's two
    claims reproduce for the four all-reduces counted above, and each fails alone when PyTorch
    issues one more or a message of half that size."""
    import experiment
    record = synthetic()
    events = record["collectives"]["tp"]
    if change == "one more":
        events.append(dict(events[0]))
    elif change == "half the bytes":
        events[1] |= {"in_bytes": MESSAGE // 2, "out_bytes": MESSAGE // 2}
    rows = {row["id"]: row for row in experiment.claims(
        measured=tp_analysis.ledger_values(record))}
    measured = {"tp_layer_collectives", "tp_layer_message_bytes"}
    assert {i for i in measured if rows[i]["status"] != "reproduces"} == wrong
    assert rows["tp_layer_collectives"]["computed"] == (5 if change == "one more" else 4)


def test_the_sweep_sets_the_measured_ratio_against_the_articles_r_by_hand():
    """h = 64, t = 2, P = 1e11, B = 1e9, d = 4: R = t·P·d/(18·h·B) = 8e11/1.152e12 = 0.6944;
    measured calc = the split layer's time less its all-reduces' = 6 ms, R = 2/6; predicted
    calc 72·2·8·64²/(2·1e11) s = 0.0295 ms, comm 4·4096/1e9 s = 0.016384 ms; the attention's
    own products add s/(6h) = 8/384."""
    row = tp_analysis.sweep_rows(synthetic())[0]
    assert row["predicted_ratio"] == pytest.approx(8e11 / (18 * 64 * 1e9))
    assert row["calc_ms"] == 6.0 and row["ratio"] == pytest.approx(1 / 3)
    assert row["predicted_calc_ms"] == pytest.approx(72 * 2 * 8 * 64 ** 2 / 2e11 * 1e3)
    assert row["predicted_comm_ms"] == pytest.approx(4 * 4096 / 1e9 * 1e3)
    assert row["speedup"] == pytest.approx(10 / 8)
    assert row["speedup_all_threads"] == pytest.approx(6 / 8)
    assert row["attention_share"] == pytest.approx(8 / 384)


def test_the_sweep_over_b_s_sets_each_measured_ratio_against_one_r_by_hand():
    """h = 64, t = 2, P = 1e11, B = 1e9, d = 4, b = 2: the article's R is 0.6944 at s = 8 and
    at s = 32 alike; measured R = 2/6 and 4/16; the predicted comm at s = 32 is four times the
    one at s = 8, 4·2·32·64·4/1e9 s = 0.065536 ms."""
    rows = tp_analysis.token_rows(synthetic())
    assert [row["tokens"] for row in rows] == [16, 64]
    assert [row["predicted_ratio"] for row in rows] == pytest.approx([8e11 / (18 * 64 * 1e9)] * 2)
    assert [row["ratio"] for row in rows] == pytest.approx([1 / 3, 1 / 4])
    assert rows[1]["predicted_comm_ms"] == pytest.approx(4 * 2 * 32 * 64 * 4 / 1e9 * 1e3)


def test_the_words_of_the_b_s_sweep_follow_the_record():
    """Measured R 1/3 and 1/4 (largest under 1.25 times the smallest: flat), 0.6944 by the
    formula (the last 0.36 times it: not close); per token, 6/16 and 16/64 ms of computation,
    2/16 and 4/64 of all-reduces: both fall. Then R 0.6 and 0.7: flat and close (factor
    1.008); R 0.3 and 0.7: not flat; per-token computation that grows while the all-reduces'
    falls: not both falling."""
    seen = tp_analysis.token_readings(synthetic())
    assert (seen["flat"], seen["close"], seen["per_token_falls"]) == (False, False, True)
    assert seen["factor"] == pytest.approx(0.25 / (8e11 / (18 * 64 * 1e9)))
    record = synthetic()
    record["token_sweep"]["comm_ms"] = [0.6 * 6.0, 0.7 * 16.0]
    seen = tp_analysis.token_readings(record)
    assert (seen["flat"], seen["close"]) == (True, True)
    record["token_sweep"]["comm_ms"] = [0.3 * 6.0, 0.7 * 16.0]
    assert not tp_analysis.token_readings(record)["flat"]
    # computation 1/16 then 16/64 ms per token (grows), all-reduces 2/16 then 4/64 (falls)
    record["token_sweep"] |= {"rest_ms": [1.0, 16.0], "comm_ms": [2.0, 4.0]}
    assert not tp_analysis.token_readings(record)["per_token_falls"]


def test_every_word_the_b_s_sweep_can_choose_is_in_every_edition():
    """Each alternative token_readings can name has its words in all four editions, with the
    English slots."""
    import re
    import words
    english = words.edition("en")["words"]
    for lang in words.LANGUAGES:
        said = words.edition(lang)["words"]
        for key in ("tpm_tokens_flat", "tpm_tokens_vary", "tpm_tokens_close", "tpm_tokens_far",
                    "tpm_per_token_falls", "tpm_per_token_not"):
            assert set(re.findall(r"\{\w+\}", said[key])) == \
                set(re.findall(r"\{\w+\}", english[key])), (lang, key)


@pytest.mark.parametrize("path, expected", [
    (("schema",), "record.schema is missing"),
    (("peak", "flops_per_s"), "peak.flops_per_s is missing"),
    (("collectives", "sp"), "collectives.sp is missing"),
    (("correctness", "tp", "input_grad"), "correctness.tp.input_grad is missing"),
    (("sweep", "comm_ms"), "sweep.comm_ms is missing"),
    (("token_sweep", "rest_ms"), "token_sweep.rest_ms is missing"),
    (("protocol", "token_seq_lens"), "protocol.token_seq_lens is missing"),
])
def test_a_malformed_record_is_refused_by_name(path, expected):
    record = copy.deepcopy(synthetic())
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    with pytest.raises(ValueError, match=expected):
        tp_analysis.check_record(record)


def test_a_collective_of_an_unknown_kind_or_an_unequal_sweep_is_refused():
    record = synthetic()
    record["collectives"]["tp"][0]["kind"] = "broadcast"
    with pytest.raises(ValueError, match=r"collectives.tp\[0\].kind must be one of"):
        tp_analysis.check_record(record)
    record = synthetic()
    record["sweep"]["tp_ms"].pop()
    with pytest.raises(ValueError, match="sweep lists differ"):
        tp_analysis.check_record(record)


def test_a_record_of_one_rank_or_of_gpus_without_their_environment_is_refused():
    """A split needs two ranks; NCCL ranks must say what their timing depends on (GPUs,
    driver, CUDA, NCCL, TF32), as article 1's records must."""
    record = synthetic()
    record["environment"]["world_size"] = 1
    with pytest.raises(ValueError, match=r"environment\.world_size must be an integer ≥ 2"):
        tp_analysis.check_record(record)
    record = synthetic()
    record["environment"] |= {"device": "cuda", "backend": "nccl"}
    with pytest.raises(ValueError, match=r"environment\.gpu\.cuda_version is missing"):
        tp_analysis.check_record(record)
    record["environment"]["gpu"] = {key: "x" for key in analysis.GPU_KEYS}
    tp_analysis.check_record(record)
    del record["environment"]["gpu"]["nccl_version"]
    with pytest.raises(ValueError, match=r"environment\.gpu\.nccl_version is missing"):
        tp_analysis.check_record(record)


def test_the_tensor_parallel_worker_refuses_one_rank_and_names_the_one_gpu_probe(monkeypatch):
    """On one GPU there is nothing to split over: the worker stops before the group starts
    and names measure.tp_gpu_probe, which times one rank's share on one GPU."""
    need_torch()
    from measure import tp_worker
    monkeypatch.setenv("WORLD_SIZE", "1")
    with pytest.raises(SystemExit, match=r"measure\.tp_worker: .*at least 2 ranks.*"
                                         r"measure\.tp_gpu_probe"):
        tp_worker.main(["--out", "unused.json", "--backend", "nccl"])


# ---- the committed record and a quick run ------------------------------------------------------

def test_the_committed_record_agrees_with_the_article_and_the_split_computes_the_same():
    record = tp_analysis.load()
    assert record["protocol"]["quick"] is False
    counts = tp_analysis.counts_against_article(record)
    assert counts["tp_agrees"] and counts["sp_same_volume"]
    for plan in ("tp", "sp"):
        assert max(record["correctness"][plan].values()) < 1e-4


def quick_tp_run(tmp_path):
    """The quick run .ci/run made (MEASURE_QUICK_RUN/tp, its output in tp-stdout.txt), or one
    launched here."""
    given = os.environ.get("MEASURE_QUICK_RUN")
    if given:
        folder = pathlib.Path(given)
        return folder / "tp", (folder / "tp-stdout.txt").read_text()
    result = subprocess.run([sys.executable, "-m", "measure", "--tp", "--quick", "--name",
                             "quick", "--out", str(tmp_path / "tp")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return tmp_path / "tp", result.stdout


def test_a_quick_tensor_parallel_run_on_two_ranks(tmp_path):
    """Two gloo ranks: the split layer's output and input gradient equal the whole layer's
    (float32 rounding), PyTorch's count agrees with the article, and the summary says so."""
    need_torch()
    folder, stdout = quick_tp_run(tmp_path)
    record = tp_analysis.load("quick", folder)
    assert record["environment"]["world_size"] == 2 and record["protocol"]["quick"] is True
    for plan in ("tp", "sp"):
        assert max(record["correctness"][plan].values()) < 1e-4
    assert tp_analysis.counts_against_article(record)["tp_agrees"]
    # The counts by hand from the quick run's own b, s, h, d and t: the Megatron split sends
    # 4 all-reduces of b·s·h·d bytes, 2 forward (attention out, MLP down) and 2 backward;
    # sequence parallelism turns each into an all-gather of a b·s·h·d/t shard into the whole
    # and a reduce-scatter of the whole into a shard, 4 of each, 4 forward and 4 backward.
    protocol, t = record["protocol"], record["environment"]["world_size"]
    whole = protocol["batch"] * protocol["seq_len"] * protocol["count_hidden"] * \
        protocol["bytes_per_value"]
    tp = record["collectives"]["tp"]
    assert [(c["kind"], c["in_bytes"], c["out_bytes"]) for c in tp] == [("all_reduce", whole, whole)] * 4
    assert sorted(c["pass"] for c in tp) == ["backward"] * 2 + ["forward"] * 2
    assert [c["module"] for c in tp if c["pass"] == "forward"] == ["Layer.attn.out", "Layer.mlp.down"]
    sp = record["collectives"]["sp"]
    gathers = [(c["in_bytes"], c["out_bytes"]) for c in sp if c["kind"] == "all_gather_into_tensor"]
    scatters = [(c["in_bytes"], c["out_bytes"]) for c in sp if c["kind"] == "reduce_scatter_tensor"]
    assert gathers == [(whole // t, whole)] * 4 and scatters == [(whole, whole // t)] * 4
    assert len(sp) == 8 and sorted(c["pass"] for c in sp) == ["backward"] * 4 + ["forward"] * 4
    assert "agrees" in stdout and "record:" in stdout
    # The sweep over b·s: the quick plan's sequence lengths at its one width, b·s by hand.
    from measure.tp_worker import QUICK
    tokens = record["token_sweep"]
    assert (tokens["hidden"], tokens["seq_len"]) == (QUICK["token_hidden"], QUICK["token_seq_lens"])
    assert [row["tokens"] for row in tp_analysis.token_rows(record)] == \
        [protocol["batch"] * s for s in QUICK["token_seq_lens"]]
    assert "b·s = " in stdout
    assert sorted(p.name for p in folder.iterdir()) == ["quick.json"]


def test_what_the_counted_section_says_of_the_committed_record_holds():
    """The sentences of tp-13-counted that compare rather than show a number: the collective
    before each residual addition is not an all-gather; the all-reduces' excess over their
    bandwidth time is larger at the smallest width than at the largest, and there is one at
    both; the split layer's time besides its all-reduces outlasts the whole layer on one rank at
    the smallest width; the split is slower than one rank at the smallest width and faster at
    the largest; even at the largest width the article's R is below the measured one."""
    record = tp_analysis.load()
    # Before each residual addition (after attn.out and mlp.down): an all-reduce, or with
    # sequence parallelism a reduce-scatter; never the all-gather the article names.
    for plan, kind in (("tp", "all_reduce"), ("sp", "reduce_scatter_tensor")):
        forward = tp_analysis.forward_kinds(record, plan)
        assert forward["attn.out"] == forward["mlp.down"] == [kind]
    rows = tp_analysis.sweep_rows(record)
    first, last = rows[0], rows[-1]
    assert first["comm_ms"] / first["predicted_comm_ms"] > last["comm_ms"] / last["predicted_comm_ms"] > 1
    assert first["calc_ms"] > first["one_ms"]
    assert first["speedup"] < 1 < last["speedup"]
    assert last["ratio"] > last["predicted_ratio"]


@pytest.mark.parametrize("lang", ["zh", "es", "it", "en"])
def test_the_counted_section_shows_another_records_number_of_ranks(lang, tmp_path):
    """Shown a record of 4 ranks with 2 threads each, tp-13 says so: by hand the ring factor
    2(t − 1)/t is 1.5, so the article's one message per all-reduce is no longer exact, and the
    split layer has 4 × 2 = 8 threads; and its prose writes T(t), never T(2)."""
    import json as json_module
    from present import number
    from test_notebook_code import execute_in_process
    from words import edition
    record = copy.deepcopy(tp_analysis.load())
    record["environment"] |= {"world_size": 4, "threads_per_rank": 2}
    path = tmp_path / "tp-four.json"
    path.write_text(json_module.dumps(record), encoding="utf-8")
    notebook = ROOT / "notebooks" / lang / "tp-13-counted.ipynb"
    glued = execute_in_process(notebook, {"record_name": str(path)})["page"].glued
    assert glued.tpm_ring_factor == number(1.5, 2, lang)
    assert glued.tpm_ring_exact == edition(lang)["words"]["ring_inexact"]
    assert (glued.tpm_ranks, glued.tpm_threads, glued.tpm_split_threads) == ("4", "2", "8")
    prose = (ROOT / "sections" / "tp-13-counted" / f"{lang}.md").read_text(encoding="utf-8")
    assert "T(2)" not in prose


# ---- one rank's share on one device (measure.tp_gpu_probe) ---------------------------------

SMALL_PLAN = {"batch": 1, "batches": [1, 2], "seq_len": 16, "hidden": [64], "degrees": [1, 2, 4],
              "warmup": 1, "repeats": 2, "dtype": "float32"}


def test_the_share_probe_times_each_degree_and_counts_what_the_share_issues(tmp_path):
    """The probe's pure parts on this CPU with a small plan: a row per (h, t), the whole layer
    (t = 1) issuing nothing and each share the article's 4 all-reduces of b·s·h·d bytes (by
    hand: 1·16·64·4 = 4096), E_calc(1) = 1 and E_calc(t) = T(1)/(t·T(t)) from the medians."""
    need_torch()
    from measure import tp_gpu_probe
    path = tmp_path / "probe.json"
    tp_gpu_probe.main(["--out", str(path)], plan=SMALL_PLAN, device="cpu")
    record = tp_analysis.load_gpu_probe(str(path))
    assert record["environment"]["device"] == "cpu" and record["protocol"]["bytes_per_value"] == 4
    rows = tp_analysis.shares_at(record)
    assert set(rows) == {(64, 1), (64, 2), (64, 4)}
    assert len(record["rows"]) == 2 * 3                  # each batch, each degree
    assert {r["tokens"] for r in tp_analysis.share_rows(record, batch=2)} == {2 * 16}
    assert (rows[64, 1]["all_reduces"], rows[64, 1]["efficiency"]) == (0, 1.0)
    for t in (2, 4):
        assert (rows[64, t]["all_reduces"], rows[64, t]["message_bytes"]) == (4, 4096)
        assert rows[64, t]["efficiency"] == pytest.approx(rows[64, 1]["ms"] / (t * rows[64, t]["ms"]))


def test_a_malformed_share_probe_record_is_refused_by_its_field():
    record = tp_analysis.load_gpu_probe()
    broken = copy.deepcopy(record)
    del broken["environment"]["gpu"]["driver_version"]
    with pytest.raises(ValueError, match=r"environment\.gpu\.driver_version is missing"):
        tp_analysis.check_gpu_probe(broken)
    broken = copy.deepcopy(record)
    broken["rows"] = [row for row in broken["rows"] if row["degree"] != 1]
    with pytest.raises(ValueError, match="degree 1"):
        tp_analysis.check_gpu_probe(broken)
    broken = copy.deepcopy(record)
    del broken["rows"][0]["median_ms"]
    with pytest.raises(ValueError, match=r"rows\[0\]\.median_ms is missing"):
        tp_analysis.check_gpu_probe(broken)


def test_what_tp13_says_of_one_ranks_share_on_the_h200_holds():
    """The sentences of tp-13's one-GPU section, from the committed record: every share issued
    the article's 4 all-reduces of b·s·h·d bytes with d = 2 in BF16 (by hand from the plan);
    at the largest width a share's time falls as t grows, and its efficiency T(1)/(t·T(t)) is
    lower at the largest t than at t = 2 and below 1; at the smallest width no share is faster
    than the whole layer."""
    record = tp_analysis.load_gpu_probe()
    protocol = record["protocol"]
    assert (protocol["dtype"], protocol["bytes_per_value"]) == ("bfloat16", 2)
    tokens = protocol["batch"] * protocol["seq_len"]
    rows = tp_analysis.share_rows(record)
    for row in rows:
        if row["degree"] > 1:
            assert (row["all_reduces"], row["message_bytes"]) == (4, tokens * row["hidden"] * 2)
    at = tp_analysis.shares_at(record)
    widest, narrowest = max(protocol["hidden"]), min(protocol["hidden"])
    degrees = sorted(protocol["degrees"])
    times = [at[widest, t]["ms"] for t in degrees]
    assert times == sorted(times, reverse=True)
    assert at[widest, degrees[-1]]["efficiency"] < at[widest, 2]["efficiency"] < 1
    assert min(at[narrowest, t]["ms"] for t in degrees[1:]) > at[narrowest, 1]["ms"]


def test_a_shares_floor_does_not_grow_with_its_tokens_on_the_h200():
    """tp-13: at the narrowest width, a share at the largest t takes about as long with 16 times
    the tokens (less than 1.5 times as long: not work), and at the widest width more tokens per
    pass raise the share's efficiency at the largest t."""
    record = tp_analysis.load_gpu_probe()
    protocol = record["protocol"]
    few, many = min(protocol["batches"]), max(protocol["batches"])
    assert many / few == 16
    t, narrow, wide = max(protocol["degrees"]), min(protocol["hidden"]), max(protocol["hidden"])

    def at(batch, hidden):
        return tp_analysis.shares_at(record, batch)[hidden, t]
    assert at(many, narrow)["ms"] < 1.5 * at(few, narrow)["ms"]
    assert at(many, wide)["efficiency"] > at(protocol["batch"], wide)["efficiency"] > \
        at(few, wide)["efficiency"]


# ---- issue 50, item 6: the whole step, counted on real gloo ranks at t = 2, 4 and 8 ---------

def test_heads_follow_the_hidden_width():
    """Heads of 128 values where h allows, never fewer than 8 (every degree up to 8 divides
    them): h = 256 has 8 heads of 32, h = 1024 has 8 of 128, h = 8192 has 64 of 128 (by hand),
    and the layer is built so."""
    need_torch()
    from measure import tp_layer
    assert [tp_layer.heads_for(h) for h in (64, 256, 1024, 2048, 8192)] == [8, 8, 8, 16, 64]
    assert tp_layer.build(2048).attn.head_width == 128
    assert tp_layer.build(256).attn.head_width == 32


def test_the_committed_counts_cover_a_whole_step_at_every_degree():
    """measure.tp_counts's record, against counts derived by hand for b = 2, s = 16, h = 64 in
    float32: Megatron's layer issues 2 all-reduces forward and 2 backward of b·s·h·d = 8192
    bytes, at every t (the article's 4 per layer); with sequence parallelism each becomes an
    all-gather or a reduce-scatter of the same whole tensor, and the step adds the 4 reductions
    of the norms' weight and bias gradients, h·d = 256 bytes each, that DTensor leaves partial
    (pytorch#115683). Every parameter's gradient, as its optimizer applies it, equals the whole
    layer's."""
    from measure import tp_counts
    record = tp_counts.load()
    b, s, h = (record["shape"][k] for k in ("batch", "seq_len", "hidden"))
    d = 4
    assert (b, s, h) == (2, 16, 64) and sorted(record["degrees"]) == ["2", "4", "8"]
    for t in ("2", "4", "8"):
        tp, sp = (record["degrees"][t][plan] for plan in ("tp", "sp"))
        assert tp_analysis.by_pass_and_kind(tp["collectives"]) == \
            {"forward:all_reduce": 2, "backward:all_reduce": 2}
        assert {max(e["in_bytes"], e["out_bytes"]) for e in tp["collectives"]} == {b * s * h * d}
        assert tp_analysis.by_pass_and_kind(sp["collectives"]) == {
            "forward:all_gather_into_tensor": 2, "forward:reduce_scatter_tensor": 2,
            "backward:all_gather_into_tensor": 2, "backward:reduce_scatter_tensor": 2,
            "step:all_reduce": 4}
        step = [e for e in sp["collectives"] if e["pass"] == "step"]
        assert {e["in_bytes"] for e in step} == {h * d}
        for plan in (tp, sp):
            assert len(plan["gradient_differences"]) == 12         # 2 norms, 4 matrices: w, b
            assert max(plan["gradient_differences"].values()) < 1e-4


def test_a_step_counted_now_reduces_every_partial_gradient(tmp_path):
    """The same on two gloo ranks now (not only the committed record): the step's four
    all-reduces are there and every gradient an optimizer would apply is the whole layer's.
    Without the reduction of the partial gradients, the norms' gradients are each rank's share
    of the sum, and this fails."""
    need_torch()
    out = tmp_path / "counts.json"
    ran = subprocess.run([sys.executable, "-m", "measure.tp_counts", "--degrees", "2",
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    from measure import tp_counts
    sp = tp_counts.check_record(json.loads(out.read_text(encoding="utf-8")))["degrees"]["2"]["sp"]
    assert tp_analysis.by_pass_and_kind(sp["collectives"])["step:all_reduce"] == 4
    assert max(sp["gradient_differences"].values()) < 1e-4


def test_whether_the_all_reduce_times_grow_steadily_is_read_from_the_record(tmp_path):
    """tp-13's sentence on the all-reduce times over h is decided by the record: the committed
    one's (1.96, 5.29, 2.36 … ms) do not grow steadily; the same record with its times sorted
    does, and the page then says so."""
    import json as json_module
    from test_notebook_code import execute_in_process
    from words import edition
    words = edition("en")["words"]
    notebook = ROOT / "notebooks" / "en" / "tp-13-counted.ipynb"
    record = tp_analysis.load()
    shown = execute_in_process(notebook, {"record_name": tp_analysis.COMMITTED})["page"].glued
    expected = "tpm_comm_steady" if sorted(record["sweep"]["comm_ms"]) == record["sweep"]["comm_ms"] \
        else "tpm_comm_unsteady"
    assert shown.tpm_comm_growth == words[expected]
    steady = copy.deepcopy(record)
    steady["sweep"]["comm_ms"] = sorted(steady["sweep"]["comm_ms"])
    path = tmp_path / "steady.json"
    path.write_text(json_module.dumps(steady), encoding="utf-8")
    shown = execute_in_process(notebook, {"record_name": str(path)})["page"].glued
    assert shown.tpm_comm_growth == words["tpm_comm_steady"]
