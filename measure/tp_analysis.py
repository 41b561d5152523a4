"""What a tensor-parallel record means: PyTorch's collectives per layer against article 2's
count, and the measured ratio of communication to compute against its R = t·P·d/(18·h·B).

Pure Python and ``model``; no torch (the notebooks show committed records). The record is
written by ``measure.tp_worker``. Times in ms, sizes in bytes, rates per second.
"""
from __future__ import annotations

import pathlib

from measure import analysis
from model import tensor_parallel as tp
from model.units import ring_factor

SCHEMA = "measure-tp/4"   # 2: the environment of measure/2 (threads, pinning, GPU); 3: the b·s sweep;
#                           4: heads that follow h (head_width, min_heads)
#: The record from this project's machine that the book shows.
COMMITTED = "tp-cpu-gloo-2x1"
#: The plans a record holds: Megatron's tensor parallelism, and with sequence parallelism.
PLANS = ("tp", "sp")
#: The kinds of collective CommDebugMode names, and the share of its larger tensor that one
#: device sends in a ring over t devices (all-reduce 2(t−1)/t; all-gather and
#: reduce-scatter (t−1)/t each, of the whole tensor).
KINDS = ("all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor")
SWEEP_LISTS = ("hidden", "one_ms", "one_all_threads_ms", "tp_ms", "comm_ms", "rest_ms",
               "rest_p10_ms", "rest_p90_ms")
#: The lists of the sweep over b·s (at one width h and batch b), one entry per sequence length.
TOKEN_LISTS = ("seq_len", *SWEEP_LISTS[1:])


def sent_per_device_bytes(kind: str, in_bytes: int, out_bytes: int, t: int) -> float:
    """Bytes one device sends for one collective in a ring over ``t`` devices."""
    whole = max(in_bytes, out_bytes)
    if kind == "all_reduce":
        return ring_factor(t) * whole
    if kind in KINDS:
        return (t - 1) / t * whole
    raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")


def by_pass_and_kind(events: list) -> dict:
    """How many collectives of each kind each pass issued: {"pass:kind": count}, in order of
    first appearance."""
    counts = {}
    for event in events:
        key = f"{event['pass']}:{event['kind']}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def per_layer(record: dict, plan: str) -> dict:
    """One layer's collectives under ``plan``: their number by (pass, kind), the bytes of
    each (the larger of its input and output), and the bytes one device sends in all."""
    t = record["environment"]["world_size"]
    events = record["collectives"][plan]
    sizes = sorted({max(e["in_bytes"], e["out_bytes"]) for e in events})
    return {"count": len(events), "by_kind": by_pass_and_kind(events), "message_bytes": sizes,
            "sent_per_device_bytes": sum(sent_per_device_bytes(e["kind"], e["in_bytes"],
                                                               e["out_bytes"], t)
                                         for e in events)}


def forward_kinds(record: dict, plan: str) -> dict:
    """The kinds of collective each module issues in the forward pass under ``plan``
    (module name without the layer's own prefix → kinds in order), e.g. the collective that
    stands before each residual addition: after ``attn.out`` and ``mlp.down``."""
    kinds = {}
    for event in record["collectives"][plan]:
        if event["pass"] == "forward":
            module = event["module"].split(".", 1)[-1]
            kinds.setdefault(module, []).append(event["kind"])
    return kinds


def parameters(record: dict, hidden: int, seq_len: int | None = None) -> dict:
    """Article 2's parameters at the record's shape (with ``seq_len`` tokens per sequence
    instead of the protocol's, if given) and width ``hidden``, with this machine's P and B as
    the record measured them."""
    protocol, peak = record["protocol"], record["peak"]
    return {"tp_batch": protocol["batch"], "tp_seq_len": seq_len or protocol["seq_len"],
            "tp_hidden": hidden, "tp_bytes_per_value": protocol["bytes_per_value"],
            "tp_flops_per_s": peak["flops_per_s"],
            "tp_bandwidth_bytes_per_s": peak["bandwidth_bytes_per_s"]}


def counts_against_article(record: dict) -> dict:
    """The article's per-layer count (4 collectives of b·s·h·d bytes; ring: 8·b·s·h·d·(t−1)/t
    bytes sent per device, Narayanan et al. 2021) against what PyTorch issued, for each plan."""
    t = record["environment"]["world_size"]
    p = parameters(record, record["protocol"]["count_hidden"])
    article = {"count": tp.COLLECTIVES_PER_LAYER, "message_bytes": tp.message_bytes(p),
               "sent_per_device_bytes": ring_factor(t) * tp.layer_comm_bytes(p)}
    plans = {plan: per_layer(record, plan) for plan in PLANS}
    tp_plan = plans["tp"]
    return {"article": article, **plans,
            "tp_agrees": (tp_plan["count"] == article["count"]
                          and set(tp_plan["by_kind"]) == {"forward:all_reduce", "backward:all_reduce"}
                          and tp_plan["message_bytes"] == [article["message_bytes"]]),
            "sp_same_volume": plans["sp"]["sent_per_device_bytes"] == tp_plan["sent_per_device_bytes"]}


def ledger_values(record: dict) -> dict:
    """What the claims ledger checks article 2's per-layer count against (model/claims.py
    MEASURED_CLAIMS): the collectives PyTorch issued for one layer under Megatron's plan, and
    the message farthest from the article's b·s·h·d, over b·s·h·d (1 when every one is)."""
    counts = counts_against_article(record)
    article = counts["article"]["message_bytes"]
    farthest = max(counts["tp"]["message_bytes"], key=lambda size: abs(size - article))
    return {"tp_layer": {"collectives": float(counts["tp"]["count"]),
                         "message_over_bshd": farthest / article}}


def sweep_rows(record: dict) -> list:
    """Per width h: measured and predicted compute and communication of one layer on t ranks,
    and R = comm/calc both ways. The measured calc is ``rest_ms``: the split layer's time less
    its all-reduces timed alone, repetition by repetition (its computation and all else it
    spends besides those all-reduces). Predicted: calc 72·b·s·h²/(t·P), comm 4·b·s·h·d/B,
    R = t·P·d/(18·h·B). ``attention_share`` is what the attention's own products QKᵀ and AV
    add to the 72·b·s·h² FLOPs, s/(6h), which the article's count leaves out."""
    t = record["environment"]["world_size"]
    sweep = record["sweep"]
    rows = []
    for values in zip(*(sweep[key] for key in SWEEP_LISTS)):
        row = dict(zip(SWEEP_LISTS, values))
        p = parameters(record, row["hidden"])
        calc_ms = row["rest_ms"]
        rows.append(row | {
            "calc_ms": calc_ms, "predicted_one_ms": 1e3 * tp.calc_s(p, 1),
            "predicted_calc_ms": 1e3 * tp.calc_s(p, t), "predicted_comm_ms": 1e3 * tp.comm_s(p),
            "ratio": row["comm_ms"] / calc_ms if calc_ms > 0 else None,
            "predicted_ratio": tp.ratio(p, t), "speedup": row["one_ms"] / row["tp_ms"],
            "speedup_all_threads": row["one_all_threads_ms"] / row["tp_ms"],
            "attention_share": p["tp_seq_len"] / (6 * row["hidden"])})
    return rows


def token_rows(record: dict) -> list:
    """Per sequence length s of the sweep over b·s (at its width h and batch b): the tokens
    b·s, the measured communication and computation (``rest_ms``, as in ``sweep_rows``) and
    R = comm/calc, against the article's: calc 72·b·s·h²/(t·P), comm 4·b·s·h·d/B, and
    R = t·P·d/(18·h·B), the same at every b·s."""
    t = record["environment"]["world_size"]
    sweep = record["token_sweep"]
    rows = []
    for values in zip(*(sweep[key] for key in TOKEN_LISTS)):
        row = dict(zip(TOKEN_LISTS, values))
        p = parameters(record, sweep["hidden"], row["seq_len"])
        rows.append(row | {
            "tokens": sweep["batch"] * row["seq_len"], "calc_ms": row["rest_ms"],
            "predicted_calc_ms": 1e3 * tp.calc_s(p, t), "predicted_comm_ms": 1e3 * tp.comm_s(p),
            "ratio": row["comm_ms"] / row["rest_ms"] if row["rest_ms"] > 0 else None,
            "predicted_ratio": tp.ratio(p, t)})
    return rows


#: The measured R "hardly depends on b·s" when its largest value over the b·s sweep is less than
#: this many times its smallest; it "agrees" with the formula within this fraction.
TOKEN_FLAT_SPREAD, TOKEN_CLOSE = 1.25, 0.2


def token_readings(record: dict) -> dict:
    """What the sweep over b·s shows, where tp-13's words depend on it (``token_rows``):

    - ``flat``: whether the measured R's largest value is under TOKEN_FLAT_SPREAD times its
      smallest (the formula's R is the same at every b·s);
    - ``close``: whether, at the most tokens, the measured R is within TOKEN_CLOSE of the
      formula's, and ``factor``, measured over formula there;
    - ``per_token_falls``: whether both the computation and the all-reduces cost more per
      token at the fewest tokens than at the most (a cost that does not grow with b·s)."""
    rows = token_rows(record)
    ratios = [row["ratio"] for row in rows if row["ratio"] is not None]
    first, last = rows[0], rows[-1]
    factor = last["ratio"] / last["predicted_ratio"] if last["ratio"] is not None else None
    return {"flat": bool(ratios) and max(ratios) < TOKEN_FLAT_SPREAD * min(ratios),
            "close": factor is not None and abs(factor - 1) < TOKEN_CLOSE, "factor": factor,
            "per_token_falls": all(first[key] / first["tokens"] > last[key] / last["tokens"]
                                   for key in ("calc_ms", "comm_ms"))}


def check_record(record: dict) -> dict:
    """Raise ValueError naming the first missing or malformed field; return the record."""
    need = analysis.needing("tensor-parallel record")
    if need(record, "schema", "record") != SCHEMA:
        raise ValueError(f"tensor-parallel record: schema must be {SCHEMA!r}; "
                         f"got {record['schema']!r}")
    environment = need(record, "environment", "record")
    # "oversubscribed" came with article 1's schema measure/3; this schema does not need it.
    for key in (k for k in analysis.ENVIRONMENT_KEYS if k != "oversubscribed"):
        need(environment, key, "environment")
    if not isinstance(environment["world_size"], int) or environment["world_size"] < 2:
        raise ValueError(f"tensor-parallel record: environment.world_size must be an integer "
                         f"≥ 2 (a split needs two ranks); got {environment['world_size']!r}")
    if environment["device"] == "cuda":
        analysis.check_gpu_fields(environment, need)
    protocol = need(record, "protocol", "record")
    for key in ("batch", "seq_len", "hidden", "count_hidden", "token_hidden", "token_seq_lens",
                "warmup", "repeats", "dtype", "bytes_per_value", "heads", "head_width", "min_heads",
                "quick"):
        need(protocol, key, "protocol")
    for plan in PLANS:
        for key in ("output", "input_grad"):
            need(need(need(record, "correctness", "record"), plan, "correctness"), key,
                 f"correctness.{plan}")
        for index, event in enumerate(need(need(record, "collectives", "record"), plan,
                                           "collectives")):
            for key in ("kind", "module", "pass", "in_bytes", "out_bytes"):
                need(event, key, f"collectives.{plan}[{index}]")
            if event["kind"] not in KINDS:
                raise ValueError(f"tensor-parallel record: collectives.{plan}[{index}].kind "
                                 f"must be one of {', '.join(KINDS)}; got {event['kind']!r}")
    for key in ("flops_per_s", "bandwidth_bytes_per_s", "matmul_ms", "allreduce_ms"):
        if not need(need(record, "peak", "record"), key, "peak") > 0:
            raise ValueError(f"tensor-parallel record: peak.{key} must be > 0")
    sweep = need(record, "sweep", "record")
    if len({len(need(sweep, key, "sweep")) for key in SWEEP_LISTS}) != 1:
        raise ValueError("tensor-parallel record: the sweep lists differ in length")
    tokens = need(record, "token_sweep", "record")
    need(tokens, "hidden", "token_sweep"), need(tokens, "batch", "token_sweep")
    if len({len(need(tokens, key, "token_sweep")) for key in TOKEN_LISTS}) != 1:
        raise ValueError("tensor-parallel record: the token_sweep lists differ in length")
    return analysis.strict(record, "tensor-parallel record")


def load(name: str = COMMITTED, directory: pathlib.Path = analysis.RECORDS) -> dict:
    """A tensor-parallel record by name or path (``analysis.record_path``), checked."""
    return analysis.load(name, directory, check=check_record)


def write_record(path, record: dict) -> None:
    """Check the record and write it as strict, sorted JSON, atomically (``analysis``'s way)."""
    analysis.write_record(path, record, check=check_record)


def figure_data(record: dict) -> dict:
    """What ``measure.figure.figure_tp_measured`` draws: per width h of the sweep, the measured
    and predicted R, compute and communication (rows without a positive measured compute are
    left out: their R does not exist)."""
    rows = [row for row in sweep_rows(record) if row["ratio"] is not None]
    keys = ("hidden", "ratio", "predicted_ratio", "calc_ms", "predicted_calc_ms", "comm_ms",
            "predicted_comm_ms")
    return {key: [row[key] for row in rows] for key in keys}


# ---- one GPU: the compute of one rank's share (measure.tp_gpu_probe) ------------------------

GPU_PROBE, GPU_PROBE_SCHEMA = "tp-gpu-probe-h200", "measure-tp-gpu-probe/1"
GPU_PROBE_ROW = ("batch", "hidden", "degree", "median_ms", "p10_ms", "p90_ms", "n", "samples_ms",
                 "collectives")


def check_gpu_probe(record: dict) -> dict:
    """The one-GPU tensor-parallel probe's record, or a ValueError naming its first missing or
    malformed field: the environment (with the GPU's fields on a GPU), the protocol, and a
    row per (width, degree) of the plan, each with its timing summary and its collectives.
    Every number finite."""
    need = analysis.needing("tensor-parallel GPU probe record")
    if need(record, "schema", "record") != GPU_PROBE_SCHEMA:
        raise ValueError(f"tensor-parallel GPU probe record: schema must be "
                         f"{GPU_PROBE_SCHEMA!r}; got {record['schema']!r}")
    environment = need(record, "environment", "record")
    if need(environment, "device", "environment") == "cuda":
        analysis.check_gpu_fields(environment, need)
    protocol = need(record, "protocol", "record")
    for key in ("batch", "batches", "seq_len", "hidden", "degrees", "dtype", "bytes_per_value",
                "heads"):
        need(protocol, key, "protocol")
    rows = need(record, "rows", "record")
    for index, row in enumerate(rows):
        for key in GPU_PROBE_ROW:
            need(row, key, f"rows[{index}]")
    taken = sorted((row["batch"], row["hidden"], row["degree"]) for row in rows)
    wanted = sorted((b, h, t) for b in protocol["batches"] for h in protocol["hidden"]
                    for t in protocol["degrees"])
    if taken != wanted or 1 not in protocol["degrees"] or protocol["batch"] not in protocol["batches"]:
        raise ValueError("tensor-parallel GPU probe record: rows must be one per (batch, hidden, "
                         "degree) of the protocol, degree 1 (the whole layer) and the main batch "
                         "included")
    return analysis.strict(record, "tensor-parallel GPU probe record")


def load_gpu_probe(name: str = GPU_PROBE, directory: pathlib.Path = analysis.RECORDS) -> dict:
    """The one-GPU tensor-parallel probe's record by name or path, checked."""
    return analysis.load(name, directory, check=check_gpu_probe)


def share_rows(record: dict, batch: int | None = None) -> list:
    """Per (width, degree) at ``batch`` sequences (default: the protocol's main batch): T(t) in
    ms, the whole layer's FLOP rate 72·b·s·h²/T(1) (the article's FLOPs of the weight
    matrices, forward and backward), and the compute efficiency of one rank's share,
    E_calc = T(1)/(t·T(t)) (1 where a share takes 1/t of the time)."""
    protocol = record["protocol"]
    batch = protocol["batch"] if batch is None else batch
    tokens = batch * protocol["seq_len"]
    rows = [row for row in record["rows"] if row["batch"] == batch]
    whole = {row["hidden"]: row["median_ms"] for row in rows if row["degree"] == 1}
    return [{"hidden": row["hidden"], "degree": row["degree"], "ms": row["median_ms"],
             "tokens": tokens,
             "flops_per_s": 72 * tokens * row["hidden"] ** 2 / (whole[row["hidden"]] / 1e3),
             "efficiency": whole[row["hidden"]] / (row["degree"] * row["median_ms"]),
             "all_reduces": sum(c["count"] for c in row["collectives"]
                                if c["kind"] == "all_reduce"),
             "message_bytes": max((c["in_bytes"] for c in row["collectives"]), default=0)}
            for row in rows]


def shares_at(record: dict, batch: int | None = None) -> dict:
    """``share_rows`` by (width, degree), for looking one up."""
    return {(row["hidden"], row["degree"]): row for row in share_rows(record, batch)}
