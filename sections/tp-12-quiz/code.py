# The code of section tp-12-quiz, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
qz = tp["quiz"]
page.glue("q4_collectives", qz["q4_collectives"], 0)
page.glue("q6_e_pct", 100 * qz["q6_efficiency_at_t_star"], 0)
page.glue("q10_known_t", qz["q10_known_degree"], 0)
page.glue("q10_known_e_pct", 100 * qz["q10_known_efficiency"], 0)
page.glue("q10_one_plus", 1 / qz["q10_known_efficiency"], 2)
page.glue("q10_k", qz["q10_k"], 4)
page.glue("q10_t", qz["q10_asked_degree"], 0)
page.glue("q10_product", qz["q10_asked_degree"] * qz["q10_k"], 0)
page.glue("q10_e_pct", 100 * qz["q10_efficiency"], 0)

# The exercises: the article's model on cases it does not work out (keys tp_ex…, this page's own).
from model import tensor_parallel as tpm

p, t_node = r["parameters"], tp["scenarios"]["gpus_per_node"]


def variant(**changes):
    """This page's parameters with ``changes``, validated by experiment.run(), and its results."""
    run = experiment.run(**{**p, **changes})
    return run["parameters"], run["tensor_parallel"]


def e_ring(q, t):
    """E(t) when every all-reduce is a ring: 2(t − 1)/t messages per device."""
    return tpm.efficiency(tpm.calc_s(q, t), tpm.ring_comm_s(q, t))


def e_article(q, t):
    """The article's E(t): one message per collective."""
    return tpm.efficiency(tpm.calc_s(q, t), tpm.comm_s(q))


page.glue("tp_ex_batch", p["tp_batch"], 0)
page.glue("tp_ex_seq_len", p["tp_seq_len"], 0)
page.glue("tp_ex_hidden", p["tp_hidden"], 0)
page.glue("tp_ex_bytes_per_value", p["tp_bytes_per_value"], 0)
page.glue("tp_ex_p_tflops", p["tp_flops_per_s"] / 1e12, 0)
page.glue("tp_ex_b_gb_per_s", p["tp_bandwidth_bytes_per_s"] / 1e9, 0)
page.glue("tp_ex_node_t", t_node, 0)
# 1: a wider model (twice as wide, within the range the book accepts) on a link as fast as a
# fifth-generation PCIe x16 link, one way.
p1, tp1 = variant(tp_hidden=min(2 * p["tp_hidden"], tpm.PARAMETERS["tp_hidden"].high),
                  tp_bandwidth_bytes_per_s=tpm.PCIE_X16_BYTES_PER_S["pcie5"])
row1 = tpm.degree_row(p1, t_node)
page.glue("tp_ex1_hidden", p1["tp_hidden"], 0)
page.glue("tp_ex1_b_gb_per_s", p1["tp_bandwidth_bytes_per_s"] / 1e9, 0)
page.glue("tp_ex1_message_mb", tp1["message_mb"], 1)
page.glue("tp_ex1_comm_ms", tp1["critical"]["c_ms"], 3)
page.glue("tp_ex1_calc_ms", row1["calc_ms"], 3)
page.glue("tp_ex1_ratio", tpm.ratio(p1, t_node), 3)
page.glue("tp_ex1_e_pct", 100 * row1["efficiency"], 1)
# 2: an H100's dense BF16 peak with two-byte values: the critical degree t* = A/C.
p2, tp2 = variant(tp_flops_per_s=tpm.PEAK_FLOPS_PER_S["h100"]["bf16"],
                  tp_bytes_per_value=tpm.BYTES_PER_VALUE["bf16"])
page.glue("tp_ex2_p_tflops", p2["tp_flops_per_s"] / 1e12, 0)
page.glue("tp_ex2_bytes_per_value", p2["tp_bytes_per_value"], 0)
page.glue("tp_ex2_a_ms", tp2["critical"]["a_ms"], 2)
page.glue("tp_ex2_c_ms", tp2["critical"]["c_ms"], 3)
page.glue("tp_ex2_t_star", tp2["critical"]["t_star"], 1)
page.glue("tp_ex_demo_t_star", tp["critical"]["t_star"], 1)
# 3: the same chip on one node, one message per collective against a ring all-reduce.
row3 = tpm.degree_row(p2, t_node)
page.glue("tp_ex3_calc_ms", row3["calc_ms"], 3)
page.glue("tp_ex3_e_pct", 100 * row3["efficiency"], 1)
page.glue("tp_ex3_ring_factor", row3["ring_factor"], 2)
page.glue("tp_ex3_ring_comm_ms", row3["ring_comm_ms"], 3)
page.glue("tp_ex3_ring_e_pct", 100 * row3["ring_efficiency"], 1)
# 4: the largest integer t with E at or above a target, from t ≤ t*(1/E − 1), checked by E itself.
target = 0.8
slack = 1 / target - 1
bound = tp["critical"]["t_star"] * slack          # the article's model
ring_bound = 1 + bound / 2                        # E = A/(A + 2C(t − 1)) with rings


def largest_degree(efficiency, bound: float):
    """The largest whole t ≥ 1 with efficiency(t) ≥ target, or None: the real bound rounded
    down, then checked by the efficiency itself (which falls with t) one step either side."""
    t = int(bound)
    if efficiency(t + 1) >= target:
        t += 1
    if t >= 1 and efficiency(t) < target:
        t -= 1
    return t if t >= 1 else None


largest = largest_degree(lambda t: e_article(p, t), bound)
ring_largest = largest_degree(lambda t: e_ring(p, t), ring_bound)   # t = 1 always qualifies
page.glue("tp_ex4_target_pct", 100 * target, 0)
page.glue("tp_ex4_slack", slack, 2)
page.glue("tp_ex4_bound", bound, 2)
page.glue("tp_ex4_t", largest, 0)
page.glue("tp_ex4_e_at_t_pct", None if largest is None else 100 * e_article(p, largest), 1)
page.glue("tp_ex4_next_t", (largest or 0) + 1, 0)
page.glue("tp_ex4_e_next_pct", 100 * e_article(p, (largest or 0) + 1), 1)
page.glue("tp_ex4_ring_bound", ring_bound, 2)
page.glue("tp_ex4_ring_t", ring_largest, 0)
page.glue("tp_ex4_ring_e_at_t_pct", 100 * e_ring(p, ring_largest), 1)
page.glue("tp_ex4_ring_next_t", ring_largest + 1, 0)
page.glue("tp_ex4_ring_e_next_pct", 100 * e_ring(p, ring_largest + 1), 1)
