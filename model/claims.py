"""The claims ledger: every number the three source articles state, recomputed.

Each claim names the article (000/001/003 say the same; 002; 004), the book section where it
sits, the source's wording (quoted from the Chinese text), the stated value and how many
decimals it gives, and where ``experiment.run()`` computes it. The status is derived, never
typed:

- ``reproduces``: the computed value is within half a unit of the last stated digit (a whole
  unit when the source says "about");
- ``does not reproduce``: it is not; the ledger then shows the correct value and the error;
- ``conflicts with well-known external facts``: the check uses facts from outside the
  article (named constants in the model, cited in the bibliography) and they disagree;
- ``cannot be recomputed from the article``: the article does not give what the number
  depends on (a measurement, an anecdote); where the article's own model says something
  relevant, it is shown as context.
"""
from __future__ import annotations

from model.tensor_parallel import MEASURED_ACROSS_NODES_BUSBW_GB_PER_S, NICS_PER_NODE, between_nodes

REPRODUCES = "reproduces"
WRONG = "does not reproduce"
EXTERNAL = "conflicts with well-known external facts"
UNVERIFIABLE = "cannot be recomputed from the article"
#: Never at the articles' parameters: at others, the quantity a claim needs may not exist (no
#: break-even point when η ≤ 1/2, no large-S case when it coincides with another).
UNDECIDED = "cannot be decided with these parameters"

TP = "tensor_parallel."
#: The two assumptions under which a collective across nodes is decided (see
#: model/tensor_parallel.across_nodes), as the ledger names them: "over one NIC (B/12)" and
#: "over all 8 NICs (B/1.5)", read from the model's adapters and cuts.
_ONE_NIC_CUT = between_nodes()["a100"]["nvlink_over_network"]
ACROSS_NODES_CUTS = {cut: ("over one NIC" if nics == 1 else f"over all {nics} NICs")
                          + f" (B/{_ONE_NIC_CUT / nics:g})" for cut, nics in NICS_PER_NODE.items()}
_BUSBW = MEASURED_ACROSS_NODES_BUSBW_GB_PER_S
ACROSS_NODES_REASON = (f"NCCL runs one ring per network adapter, so an all-reduce across DGX A100 "
                       f"nodes uses all eight: published nccl-tests bus bandwidths are "
                       f"{_BUSBW['all_nics']:g} GB/s over the eight and {_BUSBW['one_nic']:g} GB/s "
                       f"over one (NVIDIA/nccl#812, #412); the network is then "
                       f"{_ONE_NIC_CUT / NICS_PER_NODE['all_nics']:g} times slower than NVLink, "
                       f"not {_ONE_NIC_CUT:g}")
TH = "parallel_theory."


def claim(claim_id, article, section, quote, stated, decimals, key, *, about=False,
          external=False, percent=False, reason=None):
    """One stated number. ``key`` is a dotted path into run()'s results, or None; a
    ``percent`` claim is stored as a fraction (decimals count in the fraction)."""
    return {"id": claim_id, "article": article, "section": section, "source_text": quote,
            "stated": stated, "decimals": decimals, "approximate": about, "percent": percent,
            "key": key, "external": external, "reason": reason, "relation": None,
            "quantity": None}


#: How a qualitative claim compares its deciding quantity with the stated bound.
RELATIONS = {">": lambda x, bound: x > bound, ">=": lambda x, bound: x >= bound,
             "<": lambda x, bound: x < bound, "<=": lambda x, bound: x <= bound,
             "==": lambda x, bound: x == bound}


def verdict(claim_id, article, section, quote, quantity, relation, bound, decimals, key, *,
            percent=False, external=False, reason=None):
    """A sentence that makes a checkable claim without stating a number ("adding devices makes
    it slower", "falls by 40 % or more"): it holds if the quantity at ``key`` (written
    ``quantity``, e.g. "T(2t*)/T(t*)") stands in ``relation`` to ``bound`` ("> 1")."""
    row = claim(claim_id, article, section, quote, bound, decimals, key, percent=percent,
                external=external, reason=reason)
    row.update(relation=relation, quantity=quantity)
    return row


def amdahl_row(row: int, serial_pct: str, stated: tuple, wrong: set) -> list:
    """The claims of one row of article 004's Amdahl table (columns N = 2, 4, 8, 16)."""
    out = []
    for column, (devices, value) in enumerate(zip((2, 4, 8, 16), stated)):
        out.append(claim(f"amdahl_table_s{serial_pct}_n{devices}", "004", "theory-03-amdahl",
                         f"S = {serial_pct}% │ … {devices}核 … │ {value:.2f}", value, 2,
                         f"{TH}table.{row}.speedups.{column}",
                         reason="misprinted in the source table; 1/(S + (1 − S)/N) gives "
                                "the computed value" if devices in wrong else None))
    return out


SOURCE_CLAIMS = [
    # --- Article 1 (000 zh, 001 es, 003 it) -------------------------------------------
    claim("transfer", "000", "split-03-ledger", "每次传输 2,000,000 / 10,000,000,000 秒，即 0.2 毫秒",
          0.2, 1, "ledger.wire_ms"),
    claim("comm", "000", "split-03-ledger", "四次 H = 0.92 毫秒", 0.92, 2, "ledger.comm_ms"),
    claim("parallel_compute", "000", "split-03-ledger", "并行计算为 12/(2 × 0.8) = 7.5 毫秒", 7.5, 1,
          "ledger.parallel_compute_ms"),
    claim("one_device", "000", "split-03-ledger", "T₁ = 12.8", 12.8, 1, "ledger.one_ms"),
    claim("two_devices", "000", "split-03-ledger", "T₂ = 9.22 毫秒", 9.22, 2, "ledger.two_ms"),
    claim("speedup", "000", "split-03-ledger", "加速约 1.388 倍", 1.388, 3, "ledger.speedup"),
    claim("saving_factor", "000", "split-04-break-even", "η = 0.8 时括号为 0.375", 0.375, 3,
          "break_even.factor"),
    claim("break_even_c_ms", "000", "split-04-break-even", "阈值为 0.92/0.375 = 2.45333 毫秒", 2.45333,
          5, "break_even.c_ms"),
    claim("small_c_one", "000", "split-04-break-even", "若 C = 1 毫秒……单设备为 1.8 毫秒", 1.8, 1,
          "cases.small_c.one_ms"),
    claim("small_c_two", "000", "split-04-break-even", "双设备为 2.345", 2.345, 3,
          "cases.small_c.two_ms"),
    claim("slow_link_comm", "000", "split-04-break-even", "有效带宽降至 1 GB/s 时，H = 8.12", 8.12, 2,
          "cases.slow_link.comm_ms"),
    claim("slow_link_two", "000", "split-04-break-even", "T₂ = 16.42 毫秒", 16.42, 2,
          "cases.slow_link.two_ms"),
    claim("fast_link_comm", "000", "split-04-break-even", "50 GB/s 时 H = 0.28", 0.28, 2,
          "cases.fast_link.comm_ms"),
    claim("fast_link_two", "000", "split-04-break-even", "T₂ = 8.58 毫秒", 8.58, 2,
          "cases.fast_link.two_ms"),
    claim("efficiency", "000", "split-05-latency", "双设备并行效率再除以二，基例约 0.694", 0.694, 3,
          "ledger.efficiency"),
    claim("large_s_one", "000", "split-05-latency", "总时间为 112", 112.0, 0, "cases.large_s.one_ms"),
    claim("large_s_two", "000", "split-05-latency", "与 108.42 毫秒", 108.42, 2,
          "cases.large_s.two_ms"),
    claim("large_s_speedup", "000", "split-05-latency", "仅约 1.033 倍加速", 1.033, 3,
          "cases.large_s.speedup"),
    claim("overlap_bound", "000", "split-06-overlap", "基例为 8.3 而非 9.22 毫秒", 8.3, 1,
          "overlap.bound_ms"),
    claim("d_seconds", "000", "split-09-network", "D = 0.001095 秒", 0.001095, 6, "bandwidth.d_s"),
    claim("min_bandwidth", "000", "split-09-network", "带宽需超过约 1.82648 GB/s", 1.82648, 5,
          "bandwidth.b_gb_per_s"),
    claim("min_eta_12", "000", "split-09-network", "C = 12、H = 0.92 毫秒时阈值约 0.54152", 0.54152, 5,
          "efficiency_threshold.0.min_eta"),
    claim("min_eta_1", "000", "split-09-network", "C = 1 毫秒时变成 6.25", 6.25, 2,
          "efficiency_threshold.1.min_eta"),

    *[claim(f"device{d + 1}_{part}_{i}", "000", "split-02-split",
            "设备 1 计算 ReLU([1,1])，最终贡献 [1,1]；设备 2 计算 ReLU([0,4])，贡献 [−4,8]",
            float(value), 0, f"matrix.devices.{d}.{part}.{i}")
      for d, stated in enumerate(({"hidden": (1, 1), "contribution": (1, 1)},
                                  {"hidden": (0, 4), "contribution": (-4, 8)}))
      for part, values in stated.items() for i, value in enumerate(values)],
    claim("unused_share", "000", "split-05-latency", "不表示浪费了 30.6% 能量", 0.306, 3,
          "sentence_checks.unused_share", percent=True),
    claim("case_count", "000", "split-11-reproducibility", "JSON 的六个案例", 6.0, 0,
          "sentence_checks.case_count"),
    # Sentences of article 1 that its model decides (all hold).
    verdict("wait_not_halved", "000", "split-01-problem", "资源翻倍，等待却未减半", "T₁/T₂", "<", 2.0, 0,
            "ledger.speedup"),
    verdict("small_c_more_devices_slower", "000", "split-04-break-even", "资源越多反而越慢",
            "T₁/T₂ at C = 1 ms", "<", 1.0, 0, "cases.small_c.speedup"),
    verdict("eta_half_cannot_speed_up", "000", "split-04-break-even",
            "η 不超过 0.5 时分母非正…正通信成本使该模型无法加速", "T₂ − T₁ at η = 0.5 (ms)", ">", 0.0, 0,
            "sentence_checks.eta_half_extra_ms"),
    verdict("slow_link_large_job_slower", "000", "split-04-break-even", "大任务也变慢",
            "T₁/T₂ at B/10", "<", 1.0, 0, "cases.slow_link.speedup"),
    verdict("infinite_bandwidth_keeps_startup", "000", "split-04-break-even",
            "无限带宽消除 V/B，却不消除四次启动成本", "H at B = ∞ (ms)", ">", 0.0, 0,
            "infinite_bandwidth.comm_ms"),
    verdict("large_s_shrinks_relative_gain", "000", "split-05-latency",
            "相同的 S 在阈值比较中抵消，却降低相对收益", "speedup at S = 100 ms / base speedup", "<", 1.0, 0,
            "sentence_checks.large_s_over_base_speedup"),
    verdict("split_output_matches_full", "000", "split-02-split", "相加得 [−3,9]，与原输出一致",
            "max |sum of contributions − full output|", "<=", 0.0, 0,
            "sentence_checks.split_max_abs_error"),
    verdict("relu_blocks_the_sum", "000", "split-02-split", "求和不能任意穿过非线性函数",
            "ReLU(2) + ReLU(−3) − ReLU(2 − 3)", ">", 0.0, 0, "sentence_checks.relu_sum_gap"),
    verdict("eta_threshold_unreachable_small_c", "000", "split-09-network", "在效率至多为一的假设下不可能",
            "η needed at C = 1 ms", ">", 1.0, 0, "efficiency_threshold.1.min_eta"),
    verdict("perfect_eta_small_c_no_gain", "000", "split-09-network", "即使消除全部局部低效也无益",
            "T₁/T₂ at C = 1 ms, η = 1", "<", 1.0, 0,
            "sentence_checks.small_c_perfect_eta_speedup"),

    # --- Article 2 (002): tensor-parallel communication overhead -------------------------
    claim("kitchen_t4_cook", "002", "tp-05-scaling", "t=4 时，炒菜只需 2.5 分钟", 2.5, 1,
          f"{TP}kitchen.1.cook_min"),
    claim("kitchen_t4_total", "002", "tp-05-scaling", "总耗时 2.62 分钟", 2.62, 2,
          f"{TP}kitchen.1.total_min"),
    claim("kitchen_t32_cook", "002", "tp-05-scaling", "t=32 时，炒菜 0.31 分钟", 0.31, 2,
          f"{TP}kitchen.2.cook_min"),
    claim("efficiency_at_t_star", "002", "tp-07-degree", "当 t = A/C 时……效率为 50%", 0.5, 2,
          f"{TP}critical.efficiency_at_t_star", percent=True),
    claim("efficiency_at_half_t_star", "002", "tp-07-degree",
          "把 t 控制在 t*/2 以内，保证效率在 70% 以上", 0.70, 2,
          f"{TP}critical.efficiency_at_half_t_star",
          reason="E(t*/2) = A/(A + A/2) = 2/3 for every A and C, below 70 %", percent=True),
    claim("nvlink_600", "002", "tp-07-degree", "机内 NVLink 带宽可达 600 GB/s", 600.0, 0,
          f"{TP}links.a100_nvlink_gb_per_s", external=True),
    # TP = 32 (and 16) on the source's nodes of 8 GPUs leaves the node: the network between
    # nodes carries the tensor-parallel traffic (the well-known DGX A100 figures of tp-07), over
    # one adapter or over all eight (model/tensor_parallel.NICS_PER_NODE): each sentence is
    # decided under both, and published bus bandwidths say which applies.
    *[verdict(f"utilisation_tp32_{cut}", "002", "tp-08-production", "误把 TP 拉到 32，μ 会跌到三成以下",
              f"μ(32) = 1/(1 + R), TP = 32 across 4 nodes of 8, {nics}", "<", 0.30, 2,
              f"{TP}scaling_checks.across_nodes.{cut}.utilisation.32", percent=True, external=True,
              reason=ACROSS_NODES_REASON)
      for cut, nics in ACROSS_NODES_CUTS.items()],
    claim("anecdote_before_after", "002", "tp-09-applications",
          "模型 FLOPs 利用率只有 28%……利用率提升到 47%", 0.47, 2, None,
          reason="a reported measurement; the article gives nothing to recompute it from", percent=True),
    *[verdict(f"oversized_throughput_loss_tp{t}_{cut}", "002", "tp-09-applications",
              "实际吞吐可能比 TP=8 降低 40% 以上", f"1 − E({t})/E(8), TP = {t} across nodes of 8, {nics}",
              ">=", 0.40, 2, f"{TP}scaling_checks.across_nodes.{cut}.throughput_loss_vs_8.{t}",
              percent=True, external=True, reason=ACROSS_NODES_REASON)
      for t in (16, 32) for cut, nics in ACROSS_NODES_CUTS.items()],
    claim("overlap_throughput_gain", "002", "tp-09-applications", "训练吞吐提升 15%-30%", 0.15, 2,
          None, reason="a reported measurement; the article gives nothing to recompute it from", percent=True),
    claim("anecdote_devices", "002", "tp-09-applications", "512 卡上 TP=16……改为 TP=8（单节点）+ DP=64",
          512.0, 0, f"{TP}anecdote.devices_after"),
    verdict("all_gather_before_residual", "002", "tp-03-primitives",
            "比如残差连接和 Dropout 之前……用 All-Gather", "n(all-gather → residual, dropout)", ">=",
            1.0, 0, f"{TP}all_gathers_before_residual", external=True,
            reason="in Megatron-LM the collective before dropout and the residual addition is an "
                   "all-reduce, or a reduce-scatter with sequence parallelism (Korthikanti et al. "
                   "2022); the all-gather comes after LayerNorm, before the next column-split "
                   "matrix multiplication"),
    verdict("anecdote_fits_without_pp", "002", "tp-09-applications",
            "某团队训练 175B 参数模型……改为 TP=8（单节点）+ DP=64", "16 B × 175B/8 (GB)", "<=", 80.0,
            0, f"{TP}anecdote.memory.model_states_gb", external=True,
            reason="mixed-precision Adam keeps 16 bytes per parameter (Rajbhandari et al. 2020): "
                   "175B/8 parameters per device need 350 GB of model states against an A100's "
                   "80 GB; with no pipeline it fits only if gradients and optimizer states are "
                   "also sharded over the 64 data-parallel replicas (ZeRO-2: about 49 GB)"),
    claim("anecdote_time_saved", "002", "tp-09-applications", "训练时间缩短约三分之一", 0.33, 2,
          f"{TP}anecdote.time_saved", about=True,
          reason="same devices and work: time scales as 28/47, a cut of about 40 %, not a third", percent=True),
    claim("links_nvlink_share", "002", "tp-09-applications", "A 方案通信占比约 26%", 0.26, 2,
          f"{TP}links.nvlink.comm_share", about=True, percent=True),
    claim("links_pcie_share", "002", "tp-09-applications", "B 方案约 45%", 0.45, 2,
          f"{TP}links.pcie.comm_share", about=True,
          reason="R = t·P·d/(18·h·B) at 300 GB/s with the demo's P and d gives a share of 42 %", percent=True),
    claim("links_efficiency_ratio", "002", "tp-09-applications", "训练效率领先 B 方案近一倍", 2.0, 1,
          f"{TP}links.efficiency_ratio", about=True,
          reason="efficiencies 1/(1 + R) of the two links differ by about a quarter, not double"),
    claim("pcie_300", "002", "tp-09-applications", "B 方案单机 8 卡 PCIe 300GB/s", 300.0, 0,
          f"{TP}links.pcie_x16_gb_per_s.pcie5", external=True,
          reason="a PCIe 5.0 x16 link carries about 64 GB/s per direction (PCIe 4.0: 32 GB/s)"),
    verdict("network_tens_of_times_slower", "002", "tp-07-degree",
            "跨节点的网络带宽往往只有它的几十分之一", "NVLink / network, per GPU and direction (DGX A100)",
            ">=", 20.0, 0, f"{TP}links.between_nodes.a100.nvlink_over_network", external=True,
            reason="a DGX A100 gives each GPU one 200 Gb/s InfiniBand adapter, 25 GB/s each way, "
                   "against NVLink's 300 GB/s each way: 12 times; a DGX H100, 450 against 50 GB/s: "
                   "9 times; 'tens of times' needs NVLink's two-way total set against a one-way "
                   "network"),
    verdict("comm_time_at_link_bandwidth", "002", "tp-04-volume",
            "每层通信时间字节数除以带宽 B：T_comm = 4×b×s×h×d/B",
            "ring all-reduce time over 4·b·s·h·d/B at t = 8", "<=", 1.0, 2, f"{TP}demo.3.ring_factor",
            external=True,
            reason="with B the rate of a link, a ring all-reduce sends 2(t − 1)/t messages per "
                   "device: at t = 8, 1.566 ms against the formula's 0.895 ms, 1.75 times as "
                   "long; the formula is short for every t above 2"),
    verdict("network_carries_only_gradients", "002", "tp-08-production",
            "若模型大到单节点装不下，再加 PP 按层切……跨节点的慢速网络只承担低频的梯度同步",
            "activations a pipeline stage sends to the next node per micro-batch (MB)", "<=", 0.0,
            0, f"{TP}pipeline_boundary.activation_mb", external=True,
            reason="a pipeline split across nodes sends each micro-batch's activations forward and "
                   "their gradients back between nodes: 134 MB each way per micro-batch at the "
                   "demo's b, s, h and d"),
    verdict("demo_peak_in_float32", "002", "tp-10-demo",
            "flops = 1e15  # 单卡算力约 1 PFLOP/s（新一代加速卡）；dtype_bytes=4",
            "dense FP32 peak of an H100 SXM (TFLOP/s)", ">=", 1000.0, 0,
            f"{TP}precision.fastest_fp32_tflops", external=True,
            reason="1 PFLOP/s is a dense BF16/FP16 tensor-core peak (A100 312, H100 SXM 989 "
                   "TFLOP/s); in FP32, the demo's d = 4, they reach 19.5 and 67; at d = 2 the demo "
                   "gives R(8) = 0.181 and E = 0.847"),
    verdict("demo_bandwidth_per_direction", "002", "tp-10-demo",
            "bw = 600e9  # 机内 NVLink 带宽约 600 GB/s", "A100 NVLink per direction (GB/s)", ">=",
            600.0, 0, f"{TP}links.a100_nvlink_per_direction_gb_per_s", external=True,
            reason="the demo divides each message by B as a one-way rate; an A100's 600 GB/s of "
                   "NVLink counts both directions (12 links × 25 GB/s each way), one direction "
                   "carries 300 GB/s: C doubles and t* halves"),
    claim("demo_efficiency_t1", "002", "tp-10-demo", "效率如何从 100% 跌到 41%（TP=1）", 1.0, 2,
          f"{TP}demo.0.efficiency",
          reason="the demo code charges one device the full communication time, so it prints "
                 "95.7 %; 100 % holds only for the standard definition", percent=True),
    claim("demo_efficiency_t32", "002", "tp-10-demo", "效率如何从 100% 跌到 41%（TP=32）", 0.41, 2,
          f"{TP}demo.5.efficiency", percent=True),
    verdict("tp16_over_tp8", "002", "tp-11-misconceptions", "实测 TP=16 相比 TP=8 通常只快 10%-20%",
            "T(8)/T(16) − 1", "<=", 0.20, 2, f"{TP}scaling_checks.gain_16_over_8", percent=True,
            reason="within one node, the article's own model makes TP = 16 about 58 % faster "
                   "than TP = 8, not 10–20 %"),
    claim("ring_half", "002", "tp-11-misconceptions", "每块 GPU 发送约总消息量的一半", 0.5, 1,
          f"{TP}demo.1.ring_factor",
          reason="a ring all-reduce sends 2(t − 1)/t messages per device: one whole message "
                 "at t = 2, never half"),
    claim("ring_limit", "002", "tp-11-misconceptions", "t 很大时趋于总消息量", 1.0, 1,
          f"{TP}demo.5.ring_factor",
          reason="2(t − 1)/t tends to two messages, not one (1.94 at t = 32)"),
    claim("quiz_q10_k", "002", "tp-12-quiz", "由 E(4)=0.8 得 1+4k=1.25，解得 k=0.0625", 0.0625, 4,
          f"{TP}quiz.q10_k"),
    claim("quiz_q10", "002", "tp-12-quiz", "E = 1/(1+16×0.0625) = 1/2 = 50%", 0.5, 2,
          f"{TP}quiz.q10_efficiency", percent=True),

    # Sentences without a number, decided by a quantity of the article's own model.
    verdict("slower_once_comm_exceeds_compute", "002", "tp-01-kitchen", "当传菜时间超过炒菜时间，加人反而更慢",
            "T(32)/T(16)", ">", 1.0, 0, f"{TP}scaling_checks.time_ratio_32_over_16",
            reason="at t = 32 communication exceeds compute, yet T(32) is below T(16): "
                   "T(t) = A/t + C keeps falling; only the efficiency falls"),
    claim("total_volume_unchanged", "002", "tp-03-primitives", "要传的总料汁量是不变的", 1.0, 0,
          f"{TP}scaling_checks.ring_cluster_traffic_ratio_32_over_2",
          reason="each message is the same size, but a ring all-reduce over t devices moves "
                 "2(t − 1) messages in all: 31 times more at t = 32 than at t = 2"),
    verdict("kitchen_comm_becomes_main", "002", "tp-05-scaling", "传菜从「小插曲」变成了「主角」",
            "C/(A/32 + C)", ">", 0.5, 2, f"{TP}scaling_checks.kitchen_t32_comm_share",
            percent=True, reason="with 32 cooks the hand-over is still only about 28 % of the "
                                 "time; the kitchen's own t* is about 83"),
    verdict("adding_cooks_makes_it_slower", "002", "tp-05-scaling", "当 t 超过某个值，加人不仅不提速",
            "T(2t*)/T(t*)", ">", 1.0, 0, f"{TP}scaling_checks.time_ratio_double_t_star",
            reason="T(t) = A/t + C keeps falling: doubling t past t* cuts the time by a quarter; "
                   "what falls is the efficiency"),
    verdict("negative_returns_past_t_star", "002", "tp-07-degree", "此后加人就是负收益",
            "T(2t*)/T(t*)", ">", 1.0, 0, f"{TP}scaling_checks.time_ratio_double_t_star",
            reason="past t* each device still shortens the layer; the return per device shrinks "
                   "but stays positive"),

    claim("compute_share_per_cook", "002", "tp-04-volume", "每位厨师的活只有原来的八分之一", 0.125, 3,
          f"{TP}sentence_checks.compute_share_at_case_degree"),
    # Sentences of article 2 that its model decides.
    verdict("ratio_rises_with_degree", "002", "tp-01-kitchen", "GPU 数量增加时，通信量与计算量的比值不断上升",
            "smallest R(t + 1) − R(t), t = 1…32", ">", 0.0, 0, f"{TP}sentence_checks.smallest_ratio_rise"),
    verdict("efficiency_falls_with_degree", "002", "tp-05-scaling",
            "当 t 从 1 增长到 32，分母中的 C×t 不断变大，E 不断走低", "largest E(t + 1) − E(t), t = 1…32", "<",
            0.0, 0, f"{TP}sentence_checks.largest_efficiency_change"),
    verdict("ratio_falls_with_hidden", "002", "tp-04-volume", "隐藏层 h 越宽…通信占比越低",
            "largest change of R along h (t = 8)", "<", 0.0, 0,
            f"{TP}sentence_checks.largest_ratio_change_versus_h"),
    verdict("ratio_falls_with_bandwidth", "002", "tp-04-volume", "带宽 B 越大，通信占比越低",
            "largest change of R along B (t = 8)", "<", 0.0, 0,
            f"{TP}sentence_checks.largest_ratio_change_versus_b"),
    verdict("only_bandwidth_or_width_dilute", "002", "tp-04-volume",
            "只有把过道修宽（B 大）或让每道菜更费功夫（h 大），通信占比才会被稀释", "R(d/2)/R(d) at t = 8", ">=",
            1.0, 1, f"{TP}sentence_checks.ratio_half_bytes_over_ratio",
            reason="R = t·P·d/(18·h·B) also falls with fewer bytes per value d (half of them halve "
                   "it), a smaller t or a smaller P, not only with a larger B or h"),
    verdict("kitchen_t4_worth_it", "002", "tp-05-scaling", "t=4 时…总耗时 2.62 分钟，还算划算",
            "E(4) in the kitchen", ">", 0.5, 2, f"{TP}kitchen.1.efficiency", percent=True),
    verdict("utilisation_tp8_above_half", "002", "tp-08-production", "TP=8 的老练配置通常能把 μ 维持在半数以上",
            "μ(8) = 1/(1 + R)", ">", 0.5, 2, f"{TP}demo.3.utilisation", percent=True),
    verdict("tp16_not_twice_tp8", "002", "tp-11-misconceptions", "把 TP 从 8 提到 16，训练速度应该翻倍吧？",
            "T(8)/T(16)", "<", 2.0, 0, f"{TP}speedup_16_over_8"),
    verdict("ring_send_not_proportional", "002", "tp-11-misconceptions",
            "增加 GPU 不会让单块卡的数据发送量按比例上涨", "ring bytes per device, t = 32 over t = 2", "<",
            16.0, 0, f"{TP}sentence_checks.ring_send_largest_over_two"),
    verdict("tp64_comm_bound_under_overlap", "002", "tp-11-misconceptions",
            "当 T_comm 已经远大于 T_calc 时，再怎么重叠…也被通信时间卡死", "T_comm/T_calc at t = 64", ">", 1.0, 0,
            f"{TP}sentence_checks.ratio_at_twice_largest"),

    # --- Article 3 (004): parallel computing theory ------------------------------------
    claim("naive_days", "004", "theory-01-intuition", "30/8 = 3.75 天", 3.75, 2,
          f"{TH}training.naive_days"),
    claim("single_a100_30_days", "004", "theory-01-intuition", "单卡 A100 训练 175B 参数模型 预计时间：30 天",
          30.0, 0, f"{TH}single_a100.days_at_peak", external=True,
          reason="GPT-3's 3.14e23 FLOPs at an A100's 312 TFLOP/s peak take decades, and its "
                 "FP16 weights alone need 350 GB against 80 GB"),
    *[claim(f"amdahl_example_n{n}", "004", "theory-03-amdahl", f"Speedup({n}) = {v:.2f}", v, 2,
            f"{TH}example.{i}.speedup") for i, (n, v) in
      enumerate(((1, 1.00), (2, 1.82), (4, 3.08), (8, 4.71), (16, 6.40)))],
    claim("amdahl_example_limit", "004", "theory-03-amdahl", "Speedup(∞) = 1 / 0.1 = 10", 10.0, 0,
          f"{TH}example.5.speedup"),
    *amdahl_row(0, "5", (1.90, 3.48, 5.93, 9.38), {16}),
    *amdahl_row(1, "10", (1.82, 3.08, 4.71, 6.40), set()),
    *amdahl_row(2, "20", (1.67, 2.67, 3.48, 4.44), {4, 8, 16}),
    *amdahl_row(3, "50", (1.33, 1.60, 1.78, 1.94), {16}),
    *amdahl_row(4, "90", (1.11, 1.19, 1.25, 1.31), {2, 4, 8, 16}),
    *[claim(f"amdahl_limit_s{pct}", "004", "theory-03-amdahl", f"S = {pct}% … 理论极限 {v}x", v,
            decimals, f"{TH}table.{i}.limit") for i, (pct, v, decimals) in
      enumerate((("5", 20.0, 0), ("10", 10.0, 0), ("20", 5.0, 0), ("50", 2.0, 0),
                 ("90", 1.1, 1)))],
    claim("breakdown_serial", "004", "theory-04-training", "实际串行比例 S ≈ 20%（考虑通信开销）", 0.2, 1,
          f"{TH}training.breakdown_serial", percent=True),
    claim("training_speedup", "004", "theory-04-training", "Speedup(8) = … = 3.33x", 3.33, 2,
          f"{TH}training.speedup"),
    claim("training_days", "004", "theory-04-training", "30 天 / 3.33 = 9 天", 9.0, 0,
          f"{TH}training.days"),
    claim("gustafson_example", "004", "theory-04-training", "8 卡加速比 = 8 + 0.1 × (1 - 8) = 7.3x",
          7.3, 1, f"{TH}training.gustafson_example"),
    claim("warp_32", "004", "theory-05-flynn", "一个 Warp = 32 个线程", 32.0, 0, f"{TH}facts.warp_threads",
          external=True),
    claim("max_over_n_formula", "004", "theory-02-serial-parallel",
          "并行时间 T(N) = max(t1, t2, t3, t4) / N", 0.25, 2, f"{TH}checks.unit_tasks_parallel_time",
          reason="four equal tasks on four devices take one task's time, max(tᵢ); the formula "
                 "max(tᵢ)/N divides by N a second time"),
    claim("single_device_communication", "004", "theory-04-training", "Communication（梯度同步） ≈ 10%",
          0.10, 2, f"{TH}checks.single_device_communication_share", percent=True,
          reason="a single device has no gradients to synchronise: its communication share is 0"),
    verdict("smaller_s_explains_five_days", "004", "theory-04-training", "因为通信优化做得好（NVLink），实际 S 更小",
            "T(8) without communication", "<=", 5.0, 0, f"{TH}checks.days_without_communication",
            reason="even with no communication at all the breakdown gives 6 days on 8 devices, "
                   "not 5"),
    verdict("gustafson_explains_five_days", "004", "theory-04-training",
            "为什么实际可能比理论快？（Gustafson 定律）", "T(8) of the fixed job at Gustafson's S",
            "<=", 5.0, 0, f"{TH}training.gustafson_s_fixed_job_days",
            reason="the source fixes the dataset and the model, so the job does not grow: with "
                   "Gustafson's S = 0.1 Amdahl's law gives about 6.4 days on 8 devices, not 5; "
                   "Gustafson's speedup counts the extra work of a grown job"),
    verdict("allreduce_cuts_gradient_traffic", "004", "theory-06-efficiency",
            "实际上通过 AllReduce 优化为 8 份 × 1 份传输", "2(N − 1)/N × 700 GB", "<=", 700.0, 0,
            f"{TH}memory.ring_bytes_per_device_gb",
            reason="a ring all-reduce sends each device 2(N − 1)/N times the gradients, 1225 GB "
                   "for 700 GB at N = 8: more than one share, not less"),
    claim("efficiency_speedup", "004", "theory-06-efficiency", "8 卡加速比 ≈ 8 × 0.75 = 6x", 6.0, 0,
          f"{TH}efficiency.speedup"),
    claim("efficiency_days", "004", "theory-06-efficiency", "30 天 / 6 = 5 天", 5.0, 0,
          f"{TH}efficiency.days"),
    claim("efficiency_budget_low", "004", "theory-06-efficiency", "实际并行效率 ≈ 70-80%（下限）", 0.70,
          2, f"{TH}efficiency.budget_low", percent=True),
    claim("efficiency_budget_high", "004", "theory-06-efficiency", "实际并行效率 ≈ 70-80%（上限）", 0.80,
          2, f"{TH}efficiency.budget_high", percent=True),
    claim("gradients_700gb", "004", "theory-06-efficiency", "175B 参数 = 700 GB", 700.0, 0,
          f"{TH}memory.gradients_fp32_gb"),
    claim("a100_holds_70b", "004", "theory-07-strategies", "8×A100（80GB）单卡能装 70B 参数（FP16）",
          70.0, 0, f"{TH}memory.max_fp16_parameters_per_a100_billions",
          reason="70B FP16 parameters take 140 GB; 80 GB hold at most 40B, weights alone"),
    claim("ten_x_product", "004", "theory-08-ten-x", "20 × 2 × 6 × 1.5 × 1.5 × 1.2 ≈ 648x", 648.0, 0,
          f"{TH}ten_x.product"),
    verdict("gpu_factor_in_this_run", "004", "theory-08-ten-x", "因素 1：GPU 架构（vs CPU） → ~20x 加速",
            "GPU speed over the scenario's baseline (one A100)", ">=", 20.0, 0,
            f"{TH}ten_x.gpu_factor_over_baseline",
            reason="the 30 days are already on one A100: a GPU over a GPU gains nothing (× 1)"),
    verdict("checkpointing_speeds_up", "004", "theory-08-ten-x",
            "因素 5：Activation Checkpointing → ~1.5x 加速", "step speed, forward pass repeated",
            ">=", 1.5, 2, f"{TH}ten_x.checkpointing_step_speed",
            reason="recomputing the forward pass (40 % of the breakdown) makes a step 1.4 times "
                   "as long: about 0.71 of the speed; it saves memory, not time"),
    claim("ten_x_achieved", "004", "theory-08-ten-x", "单卡 30 天 → 多卡 3 天（~10x）", 10.0, 0,
          f"{TH}ten_x.achieved"),
    claim("ten_x_data_parallel", "004", "theory-08-ten-x", "因素 3：8 卡数据并行 → ~6x 加速", 6.0, 0,
          f"{TH}efficiency.speedup", about=True),
    verdict("ten_x_data_parallel_fits", "004", "theory-08-ten-x", "因素 3：8 卡数据并行 → ~6x 加速",
            "FP16 weights of the 175B model on each device under pure data parallelism (GB)",
            "<=", 80.0, 0, f"{TH}memory.weights_fp16_gb", external=True,
            reason="pure data parallelism keeps the whole model on every device: 350 GB of FP16 "
                   "weights alone (700 GB with the gradients, 2800 GB with mixed-precision Adam) "
                   "against an A100's 80 GB; even shared out over the 8 cards (640 GB in all), "
                   "mixed-precision Adam's states do not fit"),
    # Sentences of article 3 that its model decides.
    verdict("more_serial_less_gain_from_cores", "004", "theory-03-amdahl", "结论：串行比例越高，增加核心数的收益越小。",
            "largest change of Speedup(16) − Speedup(2) from one S to the next", "<", 0.0, 0,
            f"{TH}sentence_checks.largest_gain_change_with_serial"),
    verdict("gustafson_closer_to_linear", "004", "theory-04-training", "当问题规模随核心数增加时，加速比更接近线性",
            "smallest lead of N + S(1 − N) over Amdahl's, N = 2…32", ">", 0.0, 0,
            f"{TH}sentence_checks.smallest_gustafson_lead"),
    verdict("efficiency_explains_five_days", "004", "theory-06-efficiency",
            "这就解释了为什么你的同事 5 天跑完——实际效率约 75%", "E(8) = Speedup(8)/8 at the scenario's S",
            ">=", 0.75, 2, f"{TH}efficiency.amdahl_efficiency", percent=True,
            reason="with the scenario's own S = 0.2, Amdahl's law gives E(8) = 3.33/8, about 42 %; "
                   "75 % needs S of about 5 %, so the efficiency is chosen to fit the 5 days, not "
                   "derived"),
]

#: Claims of article 2 that the book checks against PyTorch's own tensor parallelism, counted in
#: the committed record (data/measurements/tp-cpu-gloo-2x1.json; measure/tp_analysis.py gives
#: the values under ``measured.tp_layer``): what one Megatron-style layer really communicates.
MEASURED_CLAIMS = [
    claim("tp_layer_collectives", "002", "tp-13-counted",
          "前向 2 次 All-Reduce/All-Gather、反向 2 次，共 4 次", 4.0, 0,
          "measured.tp_layer.collectives"),
    verdict("tp_layer_message_bytes", "002", "tp-13-counted",
            "一次 All-Reduce 传输的消息大小为 b·s·h·d",
            "PyTorch's all-reduce message farthest from b·s·h·d, over b·s·h·d", "==", 1.0, 0,
            "measured.tp_layer.message_over_bshd"),
]

#: Context values shown beside claims that cannot be recomputed from their article.
CONTEXT = {
    "tp16_over_tp8": f"{TP}speedup_16_over_8",
}


#: The qualitative claims whose deciding quantity no parameter of ``experiment.run`` moves: the
#: matrix example, the kitchen, named external facts and the fixed examples of articles 2 and 3.
#: Every other qualitative claim may change its verdict with the reader's values, so its sentence
#: carries a slot for the mark (``verdicts``; tests/test_verdicts.py checks this set both ways).
PARAMETER_FREE = frozenset({
    "split_output_matches_full", "relu_blocks_the_sum",
    "all_gather_before_residual", "anecdote_fits_without_pp", "network_tens_of_times_slower",
    "comm_time_at_link_bandwidth", "demo_peak_in_float32", "demo_bandwidth_per_direction",
    "kitchen_comm_becomes_main", "only_bandwidth_or_width_dilute", "kitchen_t4_worth_it",
    "ring_send_not_proportional",
    "gpu_factor_in_this_run", "checkpointing_speeds_up", "ten_x_data_parallel_fits",
    "more_serial_less_gain_from_cores", "gustafson_closer_to_linear",
})


def lookup(results: dict, path: str):
    """Follow a dotted path through results; list items by index or by their 'name'."""
    node = results
    for part in path.split("."):
        if isinstance(node, list):
            node = node[int(part)] if part.isdigit() else next(r for r in node if r["name"] == part)
        else:
            node = node[part]
    return node


def decide(row: dict, results: dict) -> bool | None:
    """Whether a qualitative claim holds for ``results``: its quantity stands in its relation to
    its bound; None when the quantity does not exist for the parameters of ``results``."""
    value = lookup(results, row["key"])
    return None if value is None else RELATIONS[row["relation"]](value, row["stated"])


def verdicts(section: str, results: dict, article_results: dict) -> list:
    """The qualitative claims of ``section`` that the parameters can move (not PARAMETER_FREE),
    each decided twice: ``holds`` for ``results`` (the reader's parameters), ``article_holds``
    for ``article_results`` (the articles' own), with ``computed``, the quantity's value for
    ``results`` (or None). The page marks a sentence whose two verdicts differ."""
    return [{**row, "computed": lookup(results, row["key"]), "holds": decide(row, results),
             "article_holds": decide(row, article_results)}
            for row in SOURCE_CLAIMS
            if row["section"] == section and row["relation"] is not None
            and row["id"] not in PARAMETER_FREE]


def tolerance(row: dict) -> float:
    """Half a unit of the last stated digit, or a whole unit when the source says 'about'."""
    unit = 10.0 ** -row["decimals"]
    return unit if row["approximate"] else unit / 2


def assess(row: dict, results: dict) -> dict:
    """The ledger row: the computed value, the error and the derived status."""
    out = dict(row)
    if row["key"] is None:
        context = CONTEXT.get(row["id"])
        out.update(computed=None, error=None, relative_error=None, status=UNVERIFIABLE,
                   context_key=context,
                   context_value=lookup(results, context) if context else None)
        return out
    computed = lookup(results, row["key"])
    if computed is None:                      # other parameters: the quantity does not exist
        out.update(computed=None, error=None, relative_error=None, status=UNDECIDED,
                   context_key=None, context_value=None)
        return out
    error = computed - row["stated"]
    if row["relation"] is not None:          # a qualitative claim: the relation decides
        holds, relative_error = decide(row, results), None
    else:
        holds = abs(error) <= tolerance(row) * (1 + 1e-9)
        # The usual convention: how far the stated value is from the true one, relative to
        # the true one, (stated − computed) / computed; signed, positive when the source
        # overstates; undefined (None) when the true value is 0.
        relative_error = (row["stated"] - computed) / computed if computed else None
    status = REPRODUCES if holds else (EXTERNAL if row["external"] else WRONG)
    out.update(computed=computed, error=error, relative_error=relative_error,
               status=status, context_key=None, context_value=None)
    if holds:
        out["reason"] = None
    return out


def ledger(results: dict, measured: dict | None = None) -> list:
    """Every claim of the three articles, assessed against ``results`` (the defaults), and,
    given ``measured`` (``{"tp_layer": …}``, from a measurement record), the MEASURED_CLAIMS."""
    rows = [assess(row, results) for row in SOURCE_CLAIMS]
    if measured is not None:
        rows += [assess(row, {"measured": measured}) for row in MEASURED_CLAIMS]
    return [{**row, "same_sentence": same_sentence(row, rows)} for row in rows]


def same_sentence(row: dict, rows: list) -> list:
    """The ids of the other claims that check the same sentence of the same section and reach
    another status (one sentence may state a number that reproduces and imply something that
    does not, or be decided under two assumptions), so that each ledger entry can point to
    the entries that judge its sentence otherwise."""
    return [other["id"] for other in rows if other["status"] != row["status"]
            and (other["section"], other["source_text"]) == (row["section"], row["source_text"])]
