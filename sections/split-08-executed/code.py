# The code of section split-08-executed, which its four editions run; edit it here, then `make notebooks`.
# 6 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: measured

# %% glue [hide-cell]
env, protocol, main = record["environment"], record["protocol"], record["main"]
fit, trace, sweep = record["allreduce"]["fit"], record["trace"], record["c_sweep"]
article = experiment.DEFAULTS
page.glue("device_name", env["device_name"])
page.glue("cores", env["cores_visible"])
page.glue("threads", env["threads_per_rank"])
page.glue("ranks", env["world_size"])
page.glue("backend", env["backend"])
page.glue("torch_version", env["torch_version"])
page.glue("record_python_version", env["python_version"])
page.glue("measured_on", page.date(env["date"][:10]))
for key in ("rows", "d_in", "d_out"):
    page.glue(key, protocol["shapes"][key])
page.glue("hidden_size", protocol["shapes"]["hidden"])
page.glue("warmup", protocol["warmup"])
page.glue("repeats", protocol["repeats"])
page.glue("sweep_repeats", protocol["sweep_repeats"])
page.glue("min_sample_ms", protocol["min_sample_ms"])
page.glue("main_v_bytes", main["v_bytes"])
page.glue("main_two_ms", main["two"]["median_ms"], 2)
page.glue("main_two_p90_ms", main["two"]["p90_ms"], 2)
page.glue("main_two_mean_ms", main["two"]["mean_ms"], 2)
page.glue("max_abs_difference", main["max_abs_difference"], 1, scientific_notation=True)
page.glue("main_eta", main["eta"], 3)
page.glue("ar_sizes", len(record["allreduce"]["sizes_bytes"]))
page.glue("ar_min_bytes", min(record["allreduce"]["sizes_bytes"]))
page.glue("ar_max_bytes", max(record["allreduce"]["sizes_bytes"]))
page.glue("fit_ell_ms", fit["ell_ms"], 3)
page.glue("fit_b_gb_per_s", fit["bandwidth_bytes_per_s"] / 1e9, 3)
page.glue("r2", fit["r2"], 3)
page.glue("ring_factor", record["allreduce"]["ring_factor"], 2)
page.glue("ring_bus", page.word("ring_bus_equal" if record["allreduce"]["ring_factor"] == 1
                                else "ring_bus_more"))
page.glue("article_ell_ms", article["ell_ms"], 3)
page.glue("article_eta", article["eta"], 2)
gpus_per_node = 8   # the usual node of eight GPUs, to set beside the two ranks here
page.glue("ring_node_gpus", gpus_per_node)
page.glue("ring_factor_node", ring_factor(gpus_per_node), 2)
page.glue("article_b_gb_per_s", article["b_bytes_per_s"] / 1e9, 0)
page.glue("ell_ratio", fit["ell_ms"] / article["ell_ms"], 0)
page.glue("b_ratio", article["b_bytes_per_s"] / fit["bandwidth_bytes_per_s"], 1)
page.glue("predicted_comm_ms", comparison["comm_ms"], 3)
for key in ("two_ms", "speedup", "break_even_c_ms"):
    page.glue(f"predicted_{key}", comparison[key]["predicted"], 3 if key == "speedup" else 2)
    page.glue(f"measured_{key}", comparison[key]["measured"], 3 if key == "speedup" else 2)
    error = comparison["relative_error"][key]
    page.glue(f"error_{key}", None if error is None else page.pct(error, 1))
steps = [sum(phases) for phases in zip(trace["s_ms"], trace["half_ms"], trace["allreduce_ms"])]
page.glue("trace_sum_min_ms", min(steps), 2)
page.glue("trace_sum_max_ms", max(steps), 2)
page.glue("trace_half_ms", max(trace["half_ms"]), 1)
page.glue("trace_allreduce_min_ms", min(trace["allreduce_ms"]), 3)
page.glue("trace_allreduce_max_ms", max(trace["allreduce_ms"]), 3)
page.glue("wait_max_ms", None if trace["wait_ms"] is None else max(trace["wait_ms"]), 2)
page.glue("v_measured_ms", record["allreduce"]["median_ms"][
    record["allreduce"]["sizes_bytes"].index(main["v_bytes"])], 3)
page.glue("main_half_ms", main["half"]["median_ms"], 1)
page.glue("main_c_ms", main["c"]["median_ms"], 1)
page.glue("main_two_p10_ms", main["two"]["p10_ms"], 2)
measured_crossing = analysis.crossing(sweep["c_ms"], sweep["speedup"])
bracket = measured_crossing["bracket_c_ms"] or (None, None)
page.glue("crossing_low_c_ms", bracket[0], 2)
page.glue("crossing_high_c_ms", bracket[1], 2)
own_eta = analysis.crossing(sweep["c_ms"], analysis.own_eta_speedups(record))
page.glue("eta_min", min(sweep["eta"]), 2)
page.glue("eta_min_c_ms", sweep["c_ms"][sweep["eta"].index(min(sweep["eta"]))], 2)
page.glue("sweep_points", len(sweep["hidden"]))
page.glue("hidden_min", min(sweep["hidden"]))
page.glue("hidden_max", max(sweep["hidden"]))
page.glue("one_wide_ms", main["one_wide"]["median_ms"], 2)
held = analysis.held_out(record)
# The sentences whose words depend on the record (analysis.readings decides each).
seen = analysis.readings(record, held)
two_ms = main["two"]["median_ms"]
page.glue("mean_vs_median", page.word(f"measured_mean_{seen['mean_side']}").format(
    pct=page.pct(abs(main["two"]["mean_ms"] / two_ms - 1), 1)))
page.glue("tail", page.word("measured_tail_long" if seen["long_tail"] else "measured_tail_none"))
for key, baseline in (("vs_wide", "one_wide"), ("vs_own", "one")):
    ratio = main[baseline]["median_ms"] / two_ms
    page.glue(key, page.word(f"measured_split_{seen[key]}").format(
        ratio=page.num(ratio if seen[key] == "faster" else 1 / ratio, 2)))
page.glue("line_vs_v", page.word(f"measured_line_{seen['line_vs_v']}").format(
    pct=page.pct(analysis.LINE_THROUGH, 0)))
page.glue("wait_share", page.word({True: "measured_wait_small", False: "measured_wait_large",
                                   None: "measured_wait_unknown"}[seen["wait_small"]]))
page.glue("held_main_verdict", page.word(f"measured_held_{seen['held_main']}"))
page.glue("held_widths_signs", page.word(f"measured_signs_{seen['width_signs']}"))
predicted_c, measured_c = (comparison["break_even_c_ms"][k] for k in ("predicted", "measured"))
page.glue("own_eta_move", page.word(f"measured_own_eta_{seen['own_eta']}").format(
    before=page.num(predicted_c, 2) if predicted_c is not None else "–",
    after=page.num(own_eta["c_ms"], 2) if own_eta["c_ms"] is not None else "–",
    share=page.pct((own_eta["c_ms"] - predicted_c) / (measured_c - predicted_c), 0)
    if seen["own_eta"] == "toward" else ""))
# What the operating system did to the run (environment.scheduler), and which of T₂'s median
# and p10 the model describes.
here = [rank for rank in env["ranks"] if rank["host"] == env["host"]]
threads_all = sum(rank["threads"] or env["threads_per_rank"] for rank in here)
page.glue("threads_vs_cores", page.word(
    "measured_threads_over" if env["oversubscribed"] else "measured_threads_fit").format(
    threads=threads_all, cores=env["cores_visible"]))
hz = env["scheduler"]["kernel_tick_hz"]
page.glue("tick", page.word("measured_tick_unknown") if hz is None else
          page.word("measured_tick").format(hz=hz, ms=page.num(1000 / hz, 1)))
steal = env["scheduler"]["steal_share"]
page.glue("steal_pct", page.pct(steal, 1) if steal is not None else None)
switches = env["scheduler"]["involuntary_switches_main"]
page.glue("switches_min", min(switches))
page.glue("switches_max", max(switches))
predicted_two = comparison["two_ms"]["predicted"]
page.glue("nearer", page.word(f"measured_nearer_{seen['model_nearer']}").format(
    predicted=page.num(predicted_two, 1),
    p10_error=page.pct(analysis.relative_error(predicted_two, main["two"]["p10_ms"]), 0),
    median_error=page.pct(analysis.relative_error(predicted_two, two_ms), 0)))
# The crossing against each baseline, with its bootstrap interval; the conclusion that holds.
crossings = {baseline: analysis.crossing_interval(record, baseline)
             for baseline in ("one", "one_wide")}


def crossing_words(found):
    """The words for one baseline's crossing (interval, none, or at every width)."""
    if found["c_ms"] is None:
        return page.word("measured_crossing_never" if found["reason"]
                         == "the split is slower at every C measured" else "measured_crossing_always")
    if found["interval"] is None:
        return page.word("measured_crossing_loose").format(c=page.num(found["c_ms"], 1))
    return page.word("measured_crossing_at").format(
        c=page.num(found["c_ms"], 1), low=page.num(found["interval"][0], 1),
        high=page.num(found["interval"][1], 1))


page.glue("crossing_vs_own", crossing_words(crossings["one"]))
page.glue("crossing_vs_wide", crossing_words(crossings["one_wide"]))
pays = {baseline: found["c_ms"] is not None for baseline, found in crossings.items()}
never_wide = crossings["one_wide"]["reason"] == "the split is slower at every C measured"
page.glue("conclusion", page.word("measured_conclusion_both" if all(pays.values()) else
                                  "measured_conclusion_own" if pays["one"] and never_wide else
                                  "measured_conclusion_none"))
# Independent runs beside the record (analysis.runs_of), against one run's bootstrap interval.
runs = analysis.between_runs(analysis.runs_of(record_name))
boot = analysis.median_interval(main["samples_ms"]["two"])


def span(values, decimals, scale=1):
    """The lowest and highest of ``values`` that exist, in this page's notation."""
    present = [v / scale for v in values if v is not None]
    return (page.num(min(present), decimals), page.num(max(present), decimals)) if present \
        else (page.word("none"), page.word("none"))


if len(runs["two_median_ms"]) > 1:
    (two_low, two_high), (ell_low, ell_high), (b_low, b_high), (c_low, c_high) = (
        span(runs["two_median_ms"], 1), span(runs["ell_ms"], 2),
        span(runs["bandwidth_bytes_per_s"], 2, 1e9), span(runs["break_even_c_ms"], 2))
    wider = min(runs["two_median_ms"]) < boot[0] or max(runs["two_median_ms"]) > boot[1]
    page.glue("runs", page.word("measured_runs_several").format(
        runs=len(runs["two_median_ms"]), seconds=page.num(sum(runs["duration_s"]), 0),
        two_low=two_low, two_high=two_high, ell_low=ell_low, ell_high=ell_high, b_low=b_low,
        b_high=b_high, c_low=c_low, c_high=c_high,
        crossed=sum(c is not None for c in runs["crossing_c_ms"]),
        boot_low=page.num(boot[0], 1), boot_high=page.num(boot[1], 1),
        verdict=page.word("measured_runs_wider" if wider else "measured_runs_within")))
else:
    page.glue("runs", page.word("measured_runs_one"))
page.glue("resamples", analysis.RESAMPLES)
page.glue("confidence", page.pct(analysis.CONFIDENCE, 0))
for key in ("predicted_ms", "measured_ms"):
    page.glue(f"held_main_{key}", held["main"][key], 2)
for name in ("main", "v"):
    page.glue(f"held_{name}_error", page.pct(held[name]["error"], 1))
    page.glue(f"held_{name}_low", page.pct(held[name]["interval"][0], 1))
    page.glue(f"held_{name}_high", page.pct(held[name]["interval"][1], 1))
widths = [row for name, row in held.items() if name.startswith("width ")]
page.glue("held_widths", len(widths))
page.glue("held_widths_within", sum(row["within_noise"] for row in widths))
page.glue("record_path", record_name if record_name.endswith(".json")
          else f"data/measurements/{record_name}.json")
# What one GPU measured of the split (measure.gpu_probe): the same for every record shown.
probe = analysis.load_probe()
page.glue("gpu_name", probe["environment"]["gpu"]["gpu_names"])
page.glue("gpu_measured_on", page.date(probe["environment"]["date"][:10]))
for precision in ("fp32", "tf32"):
    run = probe[precision]
    page.glue(f"gpu_{precision}_rows", run["shapes"]["rows"])
    page.glue(f"gpu_{precision}_c_ms", run["main"]["c"]["median_ms"], 2)
    page.glue(f"gpu_{precision}_tflops", run["c_tflops_per_s"], 0)
    for n in probe["protocol"]["parts"]:
        page.glue(f"gpu_{precision}_eta_{n}", run["eta"][str(n)], 2)
page.glue("gpu_fp32_row_factor", probe["fp32"]["shapes"]["rows"] / protocol["shapes"]["rows"], 0)
for place, n in zip(("a", "b", "c"), probe["protocol"]["parts"]):
    page.glue(f"gpu_parts_{place}", n)
page.glue("gpu_fp32_eta_min", min(probe["fp32"]["widths"]["eta_2"]), 2)
page.glue("gpu_fp32_eta_min_hidden", probe["fp32"]["widths"]["hidden"][
    probe["fp32"]["widths"]["eta_2"].index(min(probe["fp32"]["widths"]["eta_2"]))])

# %% table [remove-input]
symbols = {"s": "S", "c": "C", "half": "T½", "one": "T₁", "two": "T₂",
           "one_wide": f"T₁ ({page.word('every_thread')})"}
page.table(["quantity", "median_ms", "p10 (ms)", "p90 (ms)", "mean_ms"],
           [[symbol, *(page.cell(main[key][stat], 2)
                       for stat in ("median_ms", "p10_ms", "p90_ms", "mean_ms"))]
            for key, symbol in symbols.items()])

# %% table-2 [remove-input]
rows = [("T₁ (ms)", "one_ms"), ("T₂ (ms)", "two_ms"), ("T₁/T₂", "speedup"),
        ("C* (ms)", "break_even_c_ms")]
page.table(["quantity", "predicted", "measured", "error"],
           [[label, page.cell(comparison[key]["predicted"], 2)
             if comparison[key]["predicted"] is not None else page.word("none"),
             page.cell(comparison[key]["measured"], 2)
             if comparison[key]["measured"] is not None else page.word("none"),
             page.cell_pct(comparison["relative_error"][key], 1)
             if comparison["relative_error"][key] is not None else "–"]
            for label, key in rows])
if comparison["eta_note"]:
    print(comparison["eta_note"])

# %% table-held-out [remove-input]
t_n = "T" + str(env["world_size"]).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
labels = {"main": f"{t_n}, {page.word('main_step')}", "v": page.word("allreduce_v")}
page.table(["quantity", "predicted", "measured", "error",
            f"{page.word('interval')} ({page.pct(analysis.CONFIDENCE, 0)})", ""],
           [[labels[name] if name in labels else f"{t_n}, h = {name.split()[1]}",
             page.cell(row["predicted_ms"], 2), page.cell(row["measured_ms"], 2),
             page.cell_pct(row["error"], 1),
             f"{page.cell_pct(row['interval'][0], 1)} … {page.cell_pct(row['interval'][1], 1)}",
             page.word("within_noise") if row["within_noise"] else ""]
            for name, row in held.items()])

# %% table-3 [remove-input]
page.table(["hidden_width", "C (ms)", "η", "T₁ (ms)", "T₂ (ms)", "T₁/T₂",
            f"T₁/T₂ ({page.word('every_thread')})",
            f"{page.word('model')} (η = {page.cell(comparison['eta_used'], 2)})",
            f"{page.word('model')} (η(C))"],
           [[h, page.cell(c, 2), page.cell(eta, 2), page.cell(one, 2), page.cell(two, 2),
             page.cell(measured, 2), page.cell(wide, 2),
             page.cell(analysis.model_speedup(record, c, comparison["eta_used"]), 2),
             page.cell(own, 2)]
            for h, c, eta, one, two, measured, wide, own in zip(
                sweep["hidden"], sweep["c_ms"], sweep["eta"], sweep["one_ms"], sweep["two_ms"],
                sweep["speedup"], sweep["speedup_wide"], analysis.own_eta_speedups(record))])

# %% figure-measured [remove-input]
page.figure(figure_measured, analysis.figure_data(record))

# %% table-runs [remove-input]
page.table(["run", "T₂ (ms)", "ℓ (ms)", "B (GB/s)", "model_break_even_ms",
            "measured_crossing_ms"],
           [[i + 1, page.cell(two, 2), page.cell(ell, 3), page.cell(b / 1e9, 2),
             page.cell(c_star, 2) if c_star is not None else page.word("none"),
             page.cell(crossed, 2) if crossed is not None else page.word("none")]
            for i, (two, ell, b, c_star, crossed) in enumerate(zip(
                runs["two_median_ms"], runs["ell_ms"], runs["bandwidth_bytes_per_s"],
                runs["break_even_c_ms"], runs["crossing_c_ms"]))])
