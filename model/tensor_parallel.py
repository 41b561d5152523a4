"""Article 2: tensor-parallel communication overhead.

Pure functions, no I/O, in the article's order: the message of one collective (b·s·h·d
bytes), the per-layer volume (four collectives) against the per-layer work (72·b·s·h²
FLOPs split over t devices), the ratio R = t·P·d/(18·h·B), the efficiency E(t) = C/(C + H·t) (the article's A and C are the book's C and H),
the critical degree t* = C/H, the overlap bound, the utilisation μ = 1/(1 + R̄), the
demo table for TP = 1…32, and the article's worked examples and quiz answers.

Beside the article's formulas stand the standard ones it simplifies:
- ring all-reduce: each of t devices sends (and receives) 2(t − 1)/t times the message
  (the NCCL tests' bus-bandwidth convention), not the message once, and nothing at t = 1;
- efficiency at t = 1: a single device needs no collective, so the standard parallel
  efficiency T(1)/(t·T(t)) is 1 there, while the article's demo code charges one device
  the full communication time;
- the α–β model T = α + n·β for one message of n bytes (α the start-up time, β the time per
  byte, 1/B; Hockney's t₀ + n/r∞): the article keeps only the n·β term.

Times in seconds unless a name says otherwise; bandwidth in decimal bytes per second.
"""
from __future__ import annotations

from model.parallel_theory import A100_MEMORY_GB, ADAM_BYTES_PER_PARAMETER
from model.units import Parameter, log_grid, ring_factor, steps

#: The demo's parameters (the article's Python demo), with the ranges the book accepts.
PARAMETERS = {
    "tp_batch": Parameter(2, "b, samples per batch", 1, 10**6, integer=True),
    "tp_seq_len": Parameter(2048, "s, tokens per sample", 1, 10**7, integer=True),
    "tp_hidden": Parameter(8192, "h, the hidden size", 1, 10**6, integer=True),
    "tp_bytes_per_value": Parameter(4, "d, bytes per value", 1, 64, integer=True),
    "tp_flops_per_s": Parameter(1e15, "P, the compute throughput in FLOP/s", 1e6, 1e21),
    "tp_bandwidth_bytes_per_s": Parameter(6e11, "B, the bandwidth in bytes/s", 1e3, 1e15),
}

DEGREES = (1, 2, 4, 8, 16, 32)          # the demo's tensor-parallel degrees
COLLECTIVES_PER_LAYER = 4               # two in the forward pass, two in the backward pass
FLOPS_PER_LAYER_FACTOR = 72             # 72·b·s·h² per layer, forward and backward

# The kitchen example of the scaling section (minutes).
CHEF_A_MIN = 10.0                       # one cook, one pot
CHEF_C_MIN = 0.12                       # fixed hand-over time per cook
CHEF_DEGREES = (1, 4, 32)

# The hardware-selection case: same demo P and d, t = 8, h = 8192, two intra-node links.
CASE_DEGREE = 8
#: The ring all-reduce tp-03 works through step by step (its diagram and prose): t devices, each
#: message cut into t chunks.
RING_EXAMPLE_DEVICES = 4
CASE_LINKS_BYTES_PER_S = {"nvlink": 6e11, "pcie": 3e11}
# Well-known external facts to set beside the article's link figures:
PCIE_X16_BYTES_PER_S = {"pcie4": 32e9, "pcie5": 64e9}   # PCI-SIG, per direction, ≈ 31.5 and 63 GB/s
# NVIDIA A100 datasheet: twelve NVLink links of 25 GB/s each way, 600 GB/s counting both.
A100_NVLINK_LINKS, A100_NVLINK_LINK_BYTES_PER_S_PER_DIRECTION = 12, 25e9
A100_NVLINK_BYTES_PER_S_PER_DIRECTION = A100_NVLINK_LINKS * A100_NVLINK_LINK_BYTES_PER_S_PER_DIRECTION
A100_NVLINK_BYTES_PER_S = 2 * A100_NVLINK_BYTES_PER_S_PER_DIRECTION   # both directions
# Between nodes: a DGX A100 has one 200 Gb/s HDR InfiniBand adapter per GPU (eight for eight), a
# DGX H100 one 400 Gb/s NDR adapter per GPU, whose NVLink carries 450 GB/s each way (NVIDIA's
# DGX A100 and DGX H100 datasheets); rates per GPU, per direction.
NETWORK_BITS_PER_S_PER_GPU = {"a100": 200e9, "h100": 400e9}
NVLINK_BYTES_PER_S_PER_DIRECTION = {"a100": A100_NVLINK_BYTES_PER_S_PER_DIRECTION, "h100": 450e9}
# How many of a node's adapters one collective across nodes uses decides how much slower the
# network is for it than NVLink. NCCL builds one ring per adapter, so an all-reduce across DGX
# A100 nodes runs over all eight (the "every NIC" cut, NVLink's rate over the node's); a ring
# confined to one adapter gets that adapter's rate alone (the "one NIC" cut, the per-GPU ratio
# above). Published nccl-tests bus bandwidths of an all-reduce across DGX A100 nodes, in GB/s:
# 192 over their eight 200 Gb/s HDR adapters (NVIDIA's NCCL team, NVIDIA/nccl#812) and 24
# through a single one (NVIDIA/nccl#412).
NICS_PER_NODE = {"one_nic": 1, "all_nics": 8}
MEASURED_ACROSS_NODES_BUSBW_GB_PER_S = {"one_nic": 24.0, "all_nics": 192.0}

# Dense peaks of the accelerators the demo's P = 1 PFLOP/s has in mind, in FLOP/s, by the
# precision of a value: FP32 (d = 4, the demo's) and BF16/FP16 on the tensor cores (d = 2). NVIDIA's
# A100 datasheet (19.5 and 312 TFLOP/s) and H100 datasheet, SXM (67 and 989 TFLOP/s, without
# sparsity).
PEAK_FLOPS_PER_S = {"a100": {"fp32": 19.5e12, "bf16": 312e12},
                    "h100": {"fp32": 67e12, "bf16": 989e12}}
BYTES_PER_VALUE = {"fp32": 4, "bf16": 2}

# Quiz question 10: E(4) = 80 %, R proportional to t.
QUIZ_KNOWN_DEGREE, QUIZ_KNOWN_EFFICIENCY, QUIZ_ASKED_DEGREE = 4, 0.8, 16

# The application section's scenarios, as the article tells them (reported, not recomputable).
SCENARIOS = {
    "cluster_devices": 1024, "oversized_degrees": (16, 32), "throughput_loss": 0.40,
    "anecdote_devices": 512, "anecdote_parameters_b": 175, "anecdote_tp_before": 16,
    "anecdote_tp_after": 8, "anecdote_dp_after": 64, "overlap_gain": (0.15, 0.30),
    "case_hidden": 8192, "gpus_per_node": 8, "tp16_over_tp8_reported": (0.10, 0.20),
    "oversized_overlap_degree": 64,
}
# The 175B anecdote: model FLOPs utilisation before and after, same 512 devices.
ANECDOTE_UTILISATION = (0.28, 0.47)
# The anecdote's layout (TP = 8, DP = 64, no PP) is set beside mixed-precision Adam's 16 bytes
# per parameter (ADAM_BYTES_PER_PARAMETER) and an A100's 80 GB (A100_MEMORY_GB), both shared with
# article 3's model.
# Megatron-LM with sequence parallelism (Korthikanti et al. 2022, figure 5): the collective just
# before dropout and the residual addition is a reduce-scatter (g); the all-gather (ḡ) comes after
# LayerNorm, before the next column-parallel matrix multiplication. Without sequence parallelism
# (Shoeybi et al. 2019) it is an all-reduce. Either way no all-gather stands before them.
ALL_GATHERS_BEFORE_RESIDUAL_AND_DROPOUT = 0


def message_bytes(p: dict) -> float:
    """One collective's message: the full activation tensor, b·s·h·d bytes (independent of t)."""
    return p["tp_batch"] * p["tp_seq_len"] * p["tp_hidden"] * p["tp_bytes_per_value"]


def layer_comm_bytes(p: dict) -> float:
    """Bytes per layer in the article's model: four collectives of one message each."""
    return COLLECTIVES_PER_LAYER * message_bytes(p)


def layer_flops(p: dict) -> float:
    """Work per layer, forward and backward, on one device: 72·b·s·h² FLOPs."""
    return FLOPS_PER_LAYER_FACTOR * p["tp_batch"] * p["tp_seq_len"] * p["tp_hidden"] ** 2


def calc_s(p: dict, t: float) -> float:
    """Per-device compute time of one layer with degree t: 72·b·s·h²/(t·P)."""
    return layer_flops(p) / (t * p["tp_flops_per_s"])


def comm_s(p: dict) -> float:
    """The article's per-layer communication time 4·b·s·h·d/B, the same for every t."""
    return layer_comm_bytes(p) / p["tp_bandwidth_bytes_per_s"]


def ring_comm_s(p: dict, t: int) -> float:
    """Per-layer communication time with ring all-reduces at bus bandwidth B: zero at t = 1."""
    return ring_factor(t) * comm_s(p)


def ratio(p: dict, t: float) -> float:
    """R = T_comm/T_calc = t·P·d/(18·h·B), the article's closed form."""
    return t * p["tp_flops_per_s"] * p["tp_bytes_per_value"] / (
        18 * p["tp_hidden"] * p["tp_bandwidth_bytes_per_s"])


def efficiency(calc: float, comm: float) -> float:
    """The share of time spent computing, calc/(calc + comm) — the article's E(t)."""
    return calc / (calc + comm)


def degree_row(p: dict, t: int) -> dict:
    """One row of the demo table, with the article's model and the ring-corrected one."""
    calc, comm, ring = calc_s(p, t), comm_s(p), ring_comm_s(p, t)
    one_device = calc_s(p, 1)
    return {
        "t": t,
        "calc_ms": calc * 1e3,
        "comm_ms": comm * 1e3,
        "total_ms": (calc + comm) * 1e3,
        "efficiency": efficiency(calc, comm),
        "comm_share": comm / (calc + comm),
        "ratio": ratio(p, t),
        "ratio_check": comm / calc,
        "utilisation": 1 / (1 + ratio(p, t)),
        "overlap_ms": max(calc, comm) * 1e3,
        "ring_factor": ring_factor(t),
        "ring_comm_ms": ring * 1e3,
        "ring_efficiency": efficiency(calc, ring),
        "ring_comm_share": ring / (calc + ring),
        # Standard parallel efficiency T(1)/(t·T(t)), one device needing no collective.
        "standard_efficiency": 1.0 if t == 1 else one_device / (t * (calc + comm)),
    }


def kitchen(t: int) -> dict:
    """The chef example: C/t minutes of cooking plus H minutes of hand-over."""
    cook = CHEF_A_MIN / t
    return {"t": t, "cook_min": cook, "total_min": cook + CHEF_C_MIN,
            "efficiency": CHEF_A_MIN / (CHEF_A_MIN + CHEF_C_MIN * t)}


def critical(p: dict) -> dict:
    """t* = C/H, where E falls to one half, and what E is at t*/2 (the article's rule of thumb)."""
    a, c = calc_s(p, 1), comm_s(p)
    t_star = a / c
    return {"a_ms": a * 1e3, "c_ms": c * 1e3, "t_star": t_star,
            "efficiency_at_t_star": a / (a + c * t_star),
            "efficiency_at_half_t_star": a / (a + c * t_star / 2)}


def link_case(p: dict) -> dict:
    """The two-link hardware case at t = 8: R, communication share and efficiency per link."""
    rows = {}
    for name, bandwidth in CASE_LINKS_BYTES_PER_S.items():
        r = ratio({**p, "tp_bandwidth_bytes_per_s": bandwidth}, CASE_DEGREE)
        rows[name] = {"bandwidth_gb_per_s": bandwidth / 1e9, "ratio": r,
                      "comm_share": r / (1 + r), "efficiency": 1 / (1 + r)}
    rows["efficiency_ratio"] = rows["nvlink"]["efficiency"] / rows["pcie"]["efficiency"]
    rows["pcie_x16_gb_per_s"] = {gen: b / 1e9 for gen, b in PCIE_X16_BYTES_PER_S.items()}
    rows["a100_nvlink_gb_per_s"] = A100_NVLINK_BYTES_PER_S / 1e9
    rows["a100_nvlink_per_direction_gb_per_s"] = A100_NVLINK_BYTES_PER_S_PER_DIRECTION / 1e9
    rows["between_nodes"] = between_nodes()
    return rows


def between_nodes() -> dict:
    """How much slower the network between nodes is than NVLink inside one, per GPU and per
    direction, on a DGX A100 and a DGX H100: each link in GB/s (NVLink also over both directions,
    as datasheets print it; the network adapter also in Gb/s, as its datasheet gives it) and
    NVLink's rate over the network's (both rates one-way, so the ratio compares like with like)."""
    rows = {}
    for gpu, bits_per_s in NETWORK_BITS_PER_S_PER_GPU.items():
        network_bytes_per_s = bits_per_s / 8
        rows[gpu] = {"nvlink_gb_per_s": NVLINK_BYTES_PER_S_PER_DIRECTION[gpu] / 1e9,
                     "nvlink_both_ways_gb_per_s": 2 * NVLINK_BYTES_PER_S_PER_DIRECTION[gpu] / 1e9,
                     "network_gbit_per_s": bits_per_s / 1e9,
                     "network_gb_per_s": network_bytes_per_s / 1e9,
                     "nvlink_over_network": NVLINK_BYTES_PER_S_PER_DIRECTION[gpu] / network_bytes_per_s}
    return rows


def precision(p: dict) -> dict:
    """The demo's P against the accelerators' dense peaks (TFLOP/s) in FP32, the precision of its
    d = 4, and in BF16, the precision at which such a P exists; and R and E = 1/(1 + R) at
    t = CASE_DEGREE with the BF16 value size, the demo's other parameters unchanged."""
    half = {**p, "tp_bytes_per_value": BYTES_PER_VALUE["bf16"]}
    r = ratio(half, CASE_DEGREE)
    return {"peaks_tflops": {gpu: {kind: flops / 1e12 for kind, flops in peaks.items()}
                             for gpu, peaks in PEAK_FLOPS_PER_S.items()},
            "fastest_fp32_tflops": max(peaks["fp32"] for peaks in PEAK_FLOPS_PER_S.values()) / 1e12,
            "bf16_bytes_per_value": BYTES_PER_VALUE["bf16"],
            "bf16_ratio": r, "bf16_efficiency": 1 / (1 + r)}


def pipeline_boundary(p: dict) -> dict:
    """What one pipeline stage sends to the next for one micro-batch of the demo's shape: its
    output activations, b·s·h·d bytes, in MB (as many bytes of their gradients come back in the
    backward pass; Narayanan et al. 2021: point-to-point between stages, every micro-batch)."""
    return {"activation_mb": message_bytes(p) / 1e6}


def across_nodes(p: dict) -> dict:
    """The oversized degrees of the cluster case (TP = 16 and 32 on nodes of
    SCENARIOS["gpus_per_node"] GPUs, so the group spans two and four nodes), with the
    tensor-parallel traffic carried by the network between DGX A100 nodes, under each of two
    assumptions (NICS_PER_NODE): the collective runs over one adapter ("one_nic", NVLink 12 times
    faster) or over all the node's adapters ("all_nics", 1.5 times). For each: the cut (NVLink's
    one-way rate over the network's), the adapters' one-way rate together (GB/s), the demo's B
    divided by the cut (GB/s, so that it keeps the
    demo's way of counting), the published bus bandwidth that matches it (GB/s), R(t) and
    μ(t) = 1/(1 + R) (which is also E(t)), and the throughput per device each degree loses
    against TP = 8 inside a node."""
    a100 = between_nodes()["a100"]
    inside = degree_row(p, SCENARIOS["gpus_per_node"])
    out = {}
    for cut, nics in NICS_PER_NODE.items():
        slower = a100["nvlink_over_network"] / nics
        network = {**p, "tp_bandwidth_bytes_per_s": p["tp_bandwidth_bytes_per_s"] / slower}
        rows = {t: degree_row(network, t) for t in SCENARIOS["oversized_degrees"]}
        out[cut] = {"nics": nics, "nvlink_over_network": slower,
                    "network_gb_per_s": nics * a100["network_gb_per_s"],
                    "bandwidth_gb_per_s": network["tp_bandwidth_bytes_per_s"] / 1e9,
                    "measured_busbw_gb_per_s": MEASURED_ACROSS_NODES_BUSBW_GB_PER_S[cut],
                    "ratio": {str(t): row["ratio"] for t, row in rows.items()},
                    "utilisation": {str(t): row["utilisation"] for t, row in rows.items()},
                    "throughput_loss_vs_8": {str(t): 1 - row["efficiency"] / inside["efficiency"]
                                             for t, row in rows.items()}}
    return out


def anecdote_memory() -> dict:
    """Model states per device, in GB, of the 175B anecdote after its switch to TP = 8 and
    DP = 64 with no pipeline: the FP16 weights alone, all model states of mixed-precision Adam,
    and those states with gradients and optimizer states sharded over the data-parallel
    replicas (ZeRO stage 2). Activations are not counted, so each figure is a lower bound."""
    per_device = SCENARIOS["anecdote_parameters_b"] * 1e9 / SCENARIOS["anecdote_tp_after"]
    size = ADAM_BYTES_PER_PARAMETER
    replicas = SCENARIOS["anecdote_dp_after"]
    return {"parameters_per_device": per_device, "bytes_per_parameter": sum(size.values()),
            "weights_gb": per_device * size["weights"] / 1e9,
            "model_states_gb": per_device * sum(size.values()) / 1e9,
            "sharded_states_gb": per_device * (size["weights"]
                                               + (size["gradients"] + size["optimizer"]) / replicas) / 1e9,
            "device_memory_gb": float(A100_MEMORY_GB)}


def quiz(p: dict) -> dict:
    """Numeric answers of the quiz: Q6 (E at t*) and Q10 (E at t = 16 from E(4) = 80 %)."""
    k = (1 / QUIZ_KNOWN_EFFICIENCY - 1) / QUIZ_KNOWN_DEGREE
    return {"q6_efficiency_at_t_star": critical(p)["efficiency_at_t_star"],
            "q10_known_degree": QUIZ_KNOWN_DEGREE, "q10_known_efficiency": QUIZ_KNOWN_EFFICIENCY,
            "q10_asked_degree": QUIZ_ASKED_DEGREE, "q10_k": k,
            "q10_efficiency": 1 / (1 + QUIZ_ASKED_DEGREE * k),
            "q4_collectives": COLLECTIVES_PER_LAYER}


def scaling_checks(p: dict, rows: dict) -> dict:
    """The quantities that decide the article's sentences about scaling (see model/claims.py):
    whether time grows past t* or once communication exceeds compute, how the cluster's ring
    traffic grows with t, the kitchen's communication share at t = 32, and what TP = 16 and 32
    cost against TP = 8."""
    c, t_star = comm_s(p), critical(p)["t_star"]
    kitchen_32 = kitchen(CHEF_DEGREES[-1])
    return {
        # T(2t*)/T(t*) = (C/(2t*) + H)/(C/t* + H) = 1.5H/2H = 3/4 for any C and H.
        "time_ratio_double_t_star": (calc_s(p, 2 * t_star) + c) / (calc_s(p, t_star) + c),
        "time_ratio_32_over_16": rows[32]["total_ms"] / rows[16]["total_ms"],
        "ring_cluster_traffic_ratio_32_over_2": (32 * ring_factor(32)) / (2 * ring_factor(2)),
        "kitchen_t32_comm_share": 1 - kitchen_32["cook_min"] / kitchen_32["total_min"],
        "throughput_loss_vs_8": {str(t): 1 - rows[t]["efficiency"] / rows[8]["efficiency"]
                                 for t in (16, 32)},
        "gain_16_over_8": rows[8]["total_ms"] / rows[16]["total_ms"] - 1,
        "across_nodes": across_nodes(p),
    }


def sweeps(p: dict) -> dict:
    """E(t) and communication share for every t from 1 to 32; R against h and against B at t = 8."""
    degrees = list(range(1, 33))
    hidden = [int(h) for h in log_grid(1024, 32768, 41)]
    bandwidth = log_grid(2.5e10, 2e12, 41)
    return {
        "versus_t": [degree_row(p, t) for t in degrees],
        "ratio_versus_h": {"hidden": hidden,
                           "ratio": [ratio({**p, "tp_hidden": h}, CASE_DEGREE) for h in hidden]},
        "ratio_versus_b": {"bandwidth_bytes_per_s": bandwidth,
                           "ratio": [ratio({**p, "tp_bandwidth_bytes_per_s": b}, CASE_DEGREE)
                                     for b in bandwidth]},
    }


def sentence_checks(p: dict, rows: dict, sweep: dict) -> dict:
    """Quantities that decide the article's sentences (model/claims.py), from the demo's rows
    and the sweeps (``sweeps(p)``): the smallest rise of R and the largest change of E from each
    t to t + 1 (t = 1 … 32); the largest change of R at t = CASE_DEGREE along the h and B
    sweeps; R with half the bytes per value over R; what each device sends in a ring all-reduce
    at the largest demo degree over the smallest above one; T_comm/T_calc at twice the largest
    demo degree (R grows as t); each device's share of the layer's computation at
    t = CASE_DEGREE."""
    by_t = sweep["versus_t"]
    largest, two = max(DEGREES), min(t for t in DEGREES if t > 1)
    return {
        "smallest_ratio_rise": min(steps([row["ratio"] for row in by_t])),
        "largest_efficiency_change": max(steps([row["efficiency"] for row in by_t])),
        "largest_ratio_change_versus_h": max(steps(sweep["ratio_versus_h"]["ratio"])),
        "largest_ratio_change_versus_b": max(steps(sweep["ratio_versus_b"]["ratio"])),
        "ratio_half_bytes_over_ratio": ratio({**p, "tp_bytes_per_value": p["tp_bytes_per_value"] / 2},
                                             CASE_DEGREE) / ratio(p, CASE_DEGREE),
        "ring_send_largest_over_two": rows[largest]["ring_factor"] / rows[two]["ring_factor"],
        "ratio_at_twice_largest": ratio(p, 2 * largest),
        "compute_share_at_case_degree": rows[CASE_DEGREE]["calc_ms"] / rows[1]["calc_ms"],
    }


def results(p: dict) -> dict:
    """Every result of the article for parameters ``p`` (already validated)."""
    rows = {t: degree_row(p, t) for t in DEGREES}
    sweep = sweeps(p)
    before, after = ANECDOTE_UTILISATION
    return {
        "message_bytes": message_bytes(p),
        "message_mb": message_bytes(p) / 1e6,
        "layer_comm_bytes": layer_comm_bytes(p),
        "layer_flops": layer_flops(p),
        "demo": [rows[t] for t in DEGREES],
        "kitchen": [kitchen(t) for t in CHEF_DEGREES],
        "critical": critical(p),
        "links": link_case(p),
        "precision": precision(p),
        "pipeline_boundary": pipeline_boundary(p),
        "speedup_16_over_8": rows[8]["total_ms"] / rows[16]["total_ms"],
        "scaling_checks": scaling_checks(p, rows),
        "anecdote": {"before": before, "after": after, "time_ratio": before / after,
                     "time_saved": 1 - before / after,
                     "devices_after": SCENARIOS["anecdote_tp_after"] * SCENARIOS["anecdote_dp_after"],
                     "memory": anecdote_memory()},
        "quiz": quiz(p),
        "scenarios": SCENARIOS,
        "collectives_per_layer": COLLECTIVES_PER_LAYER,
        "all_gathers_before_residual": ALL_GATHERS_BEFORE_RESIDUAL_AND_DROPOUT,
        "sweeps": sweep,
        "sentence_checks": sentence_checks(p, rows, sweep),
    }
