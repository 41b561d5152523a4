# The code of section tp-13-counted, which its four editions run; edit it here, then `make notebooks`.
# 5 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: counted

# %% glue [hide-cell]
env, protocol, peak = record["environment"], record["protocol"], record["peak"]
counts = tp_analysis.counts_against_article(record)
rows = tp_analysis.sweep_rows(record)
first, last = rows[0], rows[-1]
page.glue("tpm_record_path", record_name if record_name.endswith(".json")
          else f"data/measurements/{record_name}.json")
page.glue("tpm_measured_on", page.date(env["date"][:10]))
page.glue("tpm_device_name", env["device_name"])
page.glue("tpm_ranks", env["world_size"])
page.glue("tpm_threads", env["threads_per_rank"])
page.glue("tpm_torch_version", env["torch_version"])
for key in ("batch", "seq_len", "count_hidden", "bytes_per_value", "heads", "head_width",
            "min_heads", "warmup", "repeats"):
    page.glue(f"tpm_{key}", protocol[key])
page.glue("tpm_article_count", counts["article"]["count"])
page.glue("tpm_message_bytes", counts["article"]["message_bytes"])
page.glue("tpm_article_sent_bytes", counts["article"]["sent_per_device_bytes"])
page.glue("tpm_count", counts["tp"]["count"])
page.glue("tpm_forward", counts["tp"]["by_kind"].get("forward:all_reduce", 0))
page.glue("tpm_backward", counts["tp"]["by_kind"].get("backward:all_reduce", 0))
page.glue("tpm_sent_bytes", counts["tp"]["sent_per_device_bytes"])
page.glue("tpm_agrees", page.word("agrees" if counts["tp_agrees"] else "disagrees"))
page.glue("tpm_sp_count", counts["sp"]["count"])
page.glue("tpm_sp_sent_bytes", counts["sp"]["sent_per_device_bytes"])
page.glue("tpm_sp_shard_bytes", counts["article"]["message_bytes"] // env["world_size"])
forward = {plan: tp_analysis.forward_kinds(record, plan) for plan in tp_analysis.PLANS}
page.glue("tpm_before_residual_tp", ", ".join(forward["tp"]["attn.out"]))
page.glue("tpm_before_residual_sp", ", ".join(forward["sp"]["attn.out"]))
page.glue("tpm_gathered_at", page.words["typography"]["list_separator"].join(
    m for m, kinds in forward["sp"].items() if "all_gather_into_tensor" in kinds))
# The whole step on real gloo ranks at several degrees (measure.tp_counts, its own record).
from measure import tp_counts
steps = tp_counts.load()
count_degrees = sorted(steps["degrees"], key=int)
for place, t in zip(("a", "b", "c"), count_degrees):
    page.glue(f"tpc_t_{place}", int(t))
for key in ("batch", "seq_len", "hidden"):
    page.glue(f"tpc_{key}", steps["shape"][key])
kinds = {t: {plan: tp_analysis.by_pass_and_kind(steps["degrees"][t][plan]["collectives"])
             for plan in tp_analysis.PLANS} for t in count_degrees}
step_events = [e for t in count_degrees for e in steps["degrees"][t]["sp"]["collectives"]
               if e["pass"] == "step"]
page.glue("tpc_tp_count", sum(kinds[count_degrees[0]]["tp"].values()))
assert all(kinds[t] == kinds[count_degrees[0]] for t in count_degrees)   # the prose: "at every t"
page.glue("tpc_sp_step", kinds[count_degrees[0]]["sp"].get("step:all_reduce", 0))
page.glue("tpc_norm_bytes", max((e["in_bytes"] for e in step_events), default=0))
page.glue("tpc_max_difference", max(max(steps["degrees"][t][plan]["gradient_differences"].values())
                                    for t in count_degrees for plan in tp_analysis.PLANS),
          1, scientific_notation=True)
page.glue("tpc_parameters", len(steps["degrees"][count_degrees[0]]["tp"]["gradient_differences"]))
page.glue("tpm_max_difference", max(max(record["correctness"][plan].values())
                                    for plan in tp_analysis.PLANS), 1, scientific_notation=True)
page.glue("tpm_p_gflops", peak["flops_per_s"] / 1e9, 1)
page.glue("tpm_b_gb_per_s", peak["bandwidth_bytes_per_s"] / 1e9, 2)
page.glue("tpm_bandwidth_mib", peak["allreduce_bytes"] / 2 ** 20)
page.glue("tpm_h_min", first["hidden"])
page.glue("tpm_h_max", last["hidden"])
page.glue("tpm_points", len(rows))
page.glue("tpm_ratio_above", sum(row["ratio"] is not None and row["ratio"] > row["predicted_ratio"]
                                 for row in rows))
page.glue("tpm_predicted_share_last_pct", page.pct(last["predicted_ratio"] / last["ratio"], 0))
page.glue("tpm_ratio_last", last["ratio"], 3)
page.glue("tpm_predicted_ratio_last", last["predicted_ratio"], 3)
page.glue("tpm_comm_first_ms", first["comm_ms"], 1)
page.glue("tpm_predicted_comm_first_ms", first["predicted_comm_ms"], 2)
page.glue("tpm_comm_factor_first", first["comm_ms"] / first["predicted_comm_ms"], 0)
from measure.analysis import rises_steadily
page.glue("tpm_comm_growth", page.word(
    "tpm_comm_steady" if rises_steadily(record["sweep"]["hidden"], record["sweep"]["comm_ms"])
    else "tpm_comm_unsteady"))
page.glue("tpm_comm_factor_last", last["comm_ms"] / last["predicted_comm_ms"], 1)
page.glue("tpm_calc_first_ms", first["calc_ms"], 1)
page.glue("tpm_rest_p10_first_ms", first["rest_p10_ms"], 1)
page.glue("tpm_rest_p90_first_ms", first["rest_p90_ms"], 1)
page.glue("tpm_attention_first_pct", page.pct(first["attention_share"], 0))
page.glue("tpm_one_first_ms", first["one_ms"], 1)
page.glue("tpm_calc_factor_last", last["calc_ms"] / last["predicted_calc_ms"], 2)
page.glue("tpm_one_factor_last", last["one_ms"] / last["predicted_one_ms"], 2)
page.glue("tpm_speedup_first", first["speedup"], 2)
page.glue("tpm_speedup_last", last["speedup"], 2)
page.glue("tpm_speedup_all_first", first["speedup_all_threads"], 2)
page.glue("tpm_speedup_all_last", last["speedup_all_threads"], 2)
page.glue("tpm_ring_factor", ring_factor(env["world_size"]), 2)
page.glue("tpm_ring_exact", page.word("ring_exact" if ring_factor(env["world_size"]) == 1
                                      else "ring_inexact"))
page.glue("tpm_split_threads", env["world_size"] * env["threads_per_rank"])
# One rank's share of the layer on one GPU (measure.tp_gpu_probe): the same for every record shown.
gpu_probe = tp_analysis.load_gpu_probe()
shares = tp_analysis.share_rows(gpu_probe)
widths, degrees = gpu_probe["protocol"]["hidden"], gpu_probe["protocol"]["degrees"]
at = tp_analysis.shares_at(gpu_probe)
page.glue("tpg_gpu_name", gpu_probe["environment"]["device_name"])
page.glue("tpg_measured_on", page.date(gpu_probe["environment"]["date"][:10]))
page.glue("tpg_tokens", gpu_probe["protocol"]["batch"] * gpu_probe["protocol"]["seq_len"])
page.glue("tpg_bytes_per_value", gpu_probe["protocol"]["bytes_per_value"])
page.glue("tpg_all_reduces", {row["all_reduces"] for row in shares if row["degree"] > 1}.pop())
page.glue("tpg_h_min", min(widths))
page.glue("tpg_h_max", max(widths))
page.glue("tpg_t_max", max(degrees))
page.glue("tpg_tflops_last", at[max(widths), 1]["flops_per_s"] / 1e12, 0)
# P·d/B, which R is proportional to: the GPU's rate as its probe measured it, over NVLink's
# datasheet bandwidth in one direction (none measured), against this machine's measured P and B.
nvlink_bytes_per_s = page.results["tensor_parallel"]["links"]["between_nodes"]["h100"]["nvlink_gb_per_s"] * 1e9
gpu = at[max(widths), 1]["flops_per_s"] * gpu_probe["protocol"]["bytes_per_value"] / nvlink_bytes_per_s
here = peak["flops_per_s"] * protocol["bytes_per_value"] / peak["bandwidth_bytes_per_s"]
page.glue("tpm_nvlink_gb_per_s", nvlink_bytes_per_s / 1e9, 0)
page.glue("tpm_gpu_factor", gpu / here, 0)
smallest_split = min(t for t in degrees if t > 1)   # the fewest devices that share the work
page.glue("tpg_t_split", smallest_split)
page.glue("tpg_efficiency_split_last", at[max(widths), smallest_split]["efficiency"], 2)
page.glue("tpg_efficiency_max_last", at[max(widths), max(degrees)]["efficiency"], 2)
page.glue("tpg_whole_first_ms", at[min(widths), 1]["ms"], 1)
page.glue("tpg_share_first_ms", min(at[min(widths), t]["ms"] for t in degrees if t > 1), 1)
# The same share with fewer and more tokens: a time that does not grow with them is not work.
batches = gpu_probe["protocol"]["batches"]
few_at, many_at = (tp_analysis.shares_at(gpu_probe, batch) for batch in (min(batches), max(batches)))
few_tokens, many_tokens = (min(batches) * gpu_probe["protocol"]["seq_len"],
                           max(batches) * gpu_probe["protocol"]["seq_len"])
page.glue("tpg_tokens_few", few_tokens)
page.glue("tpg_tokens_many", many_tokens)
page.glue("tpg_tokens_factor", many_tokens / few_tokens, 0)
tokens = tp_analysis.token_rows(record)
token_seen = tp_analysis.token_readings(record)
few, most = tokens[0], tokens[-1]
page.glue("tpm_token_hidden", record["token_sweep"]["hidden"])
page.glue("tpm_token_batch", record["token_sweep"]["batch"])
page.glue("tpm_token_points", len(tokens))
page.glue("tpm_token_min", few["tokens"])
page.glue("tpm_token_max", most["tokens"])
page.glue("tpm_token_predicted_ratio", few["predicted_ratio"], 3)
measured_ratios = [row["ratio"] for row in tokens if row["ratio"] is not None]
page.glue("tpm_token_ratio_min", min(measured_ratios, default=None), 3)
page.glue("tpm_token_ratio_max", max(measured_ratios, default=None), 3)
page.glue("tpm_token_spread", page.word("tpm_tokens_flat" if token_seen["flat"]
                                        else "tpm_tokens_vary"))
page.glue("tpm_token_largest", page.word(
    "tpm_tokens_close" if token_seen["close"] else "tpm_tokens_far").format(
    tokens=page.num(most["tokens"], 0),
    pct=page.pct(abs(token_seen["factor"] - 1), 0) if token_seen["factor"] is not None else "–",
    factor=page.num(token_seen["factor"], 1) if token_seen["factor"] is not None else "–"))
for name, row in (("first", few), ("last", most)):
    page.glue(f"tpm_token_calc_{name}_us", 1e3 * row["calc_ms"] / row["tokens"], 0)
    page.glue(f"tpm_token_comm_{name}_us", 1e3 * row["comm_ms"] / row["tokens"], 1)
page.glue("tpm_token_per_token", page.word("tpm_per_token_falls" if token_seen["per_token_falls"]
                                           else "tpm_per_token_not"))
page.glue("tpg_floor_few_ms", few_at[min(widths), max(degrees)]["ms"], 1)
page.glue("tpg_floor_many_ms", many_at[min(widths), max(degrees)]["ms"], 1)
page.glue("tpg_efficiency_max_many", many_at[max(widths), max(degrees)]["efficiency"], 2)

# %% table-counts [remove-input]
by_step = {}   # (pass, module) → {plan: "kind: bytes in → bytes out"}, in the order issued
for plan in ("sp", "tp"):
    for e in record["collectives"][plan]:
        step = by_step.setdefault((e["pass"], e["module"].split(".", 1)[-1]), {})
        step[plan] = (f"`{e['kind']}` {page.num(e['in_bytes'], 0)} → "
                      f"{page.num(e['out_bytes'], 0)}")
page.table(["tp_pass", "tp_module", "plan_tp", "plan_sp"],
           [[page.word(step_pass), f"`{module}`", *(plans.get(plan, "–") for plan in ("tp", "sp"))]
            for (step_pass, module), plans in by_step.items()])

# %% table-step-counts [remove-input]
def kinds_text(found: dict, step_pass: str) -> str:
    """"`kind` × n" for each kind of collective a pass issued, or a dash."""
    return ", ".join(f"`{key.split(':')[1]}` × {n}" for key, n in found.items()
                     if key.startswith(step_pass + ":")) or "–"


page.table(["t", "tp_pass", "plan_tp", "plan_sp"],
           [[int(t), page.word(step_pass), *(kinds_text(kinds[t][plan], step_pass)
                                              for plan in ("tp", "sp"))]
            for t in count_degrees for step_pass in ("forward", "backward", "step")])

# %% table-sweep [remove-input]
t = env["world_size"]
page.table(["h", "T(1) (ms)", page.word("one_all_threads_ms").format(t=t), f"T({t}) (ms)",
            "T_comm (ms)", "T_calc (ms)"],
           [[row["hidden"], page.cell(row["one_ms"], 1), page.cell(row["one_all_threads_ms"], 1),
             page.cell(row["tp_ms"], 1), page.cell(row["comm_ms"], 1), page.cell(row["calc_ms"], 1)]
            for row in rows])
page.table(["h", "R", "t·P·d/(18·h·B)", f"T(1)/T({t})",
            page.word("speedup_all_threads").format(t=t)],
           [[row["hidden"], page.cell(row["ratio"], 3) if row["ratio"] is not None else "–",
             page.cell(row["predicted_ratio"], 3), page.cell(row["speedup"], 2),
             page.cell(row["speedup_all_threads"], 2)] for row in rows])

# %% figure-tp-measured [remove-input]
page.figure(figure_tp_measured, tp_analysis.figure_data(record))

# %% table-tokens [remove-input]
page.table(["b·s", "T_comm (ms)", "T_calc (ms)", "R", "t·P·d/(18·h·B)"],
           [[row["tokens"], page.cell(row["comm_ms"], 1), page.cell(row["calc_ms"], 1),
             page.cell(row["ratio"], 3) if row["ratio"] is not None else "–",
             page.cell(row["predicted_ratio"], 3)] for row in tokens])

# %% table-gpu-shares [remove-input]
page.table(["h", "t", "T(t) (ms)", "T(1)/(t·T(t))"],
           [[row["hidden"], row["degree"], page.cell(row["ms"], 2), page.cell(row["efficiency"], 2)]
            for row in shares])
