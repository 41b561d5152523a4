# The code of section split-10-answer, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
be = r["break_even"]
page.glue("break_even_c_ms", be["c_ms"])
page.glue("c_ms", r["parameters"]["c_ms"])
page.glue("speedup", r["ledger"]["speedup"])
# The rule: C* = H / (1 − 1/(2η)), a fixed multiple of H at a given η (none where η ≤ 1/2).
page.glue("eta", r["parameters"]["eta"])
page.glue("comm_ms", be["comm_ms"])
page.glue("saving_factor", be["factor"], 3)
page.glue("break_even_multiple", 1 / be["factor"] if be["c_ms"] is not None else None, 2)

# The exercises: the article's own case (experiment's defaults, whatever this page's
# parameters) with one thing changed in each, so that question and answer always agree.
article = experiment.run()
ap, al = article["parameters"], article["ledger"]
page.glue("ex_eta", ap["eta"], 2)
page.glue("ex_comm_ms", al["comm_ms"], 6)
page.glue("ex_break_even_c_ms", article["break_even"]["c_ms"], 5)
page.glue("ex_q", ap["q"], 0)
page.glue("ex_ell_ms", ap["ell_ms"], 6)
page.glue("ex_v_mb", ap["v_bytes"] / 1e6, 6)
page.glue("ex_b_gb_per_s", ap["b_bytes_per_s"] / 1e9, 6)
# 1: a better local efficiency moves the break-even point.
ex1_run = experiment.run(eta=0.9)
ex1 = ex1_run["break_even"]
page.glue("ex1_eta", ex1_run["parameters"]["eta"], 2)
page.glue("ex1_saving_factor", ex1["factor"], 3)
page.glue("ex1_multiple", 1 / ex1["factor"], 2)
page.glue("ex1_break_even_c_ms", ex1["c_ms"], 5)
# 2: a job below C*; the bandwidth it needs (the break-even inequality solved for B).
ex2 = experiment.run(c_ms=2.0)
assert ex2["ledger"]["speedup"] < 1    # below C*: at the article's link, two devices lose
page.glue("ex2_c_ms", ex2["parameters"]["c_ms"], 6)
page.glue("ex2_one_ms", ex2["ledger"]["one_ms"], 6)
page.glue("ex2_two_ms", ex2["ledger"]["two_ms"], 6)
page.glue("ex2_d_ms", ex2["bandwidth"]["d_s"] * 1000, 6)
page.glue("ex2_min_b_gb_per_s", ex2["bandwidth"]["b_gb_per_s"], 1)
# 3: the same job, a faster link or the same bytes bundled into fewer transfers.
fast = experiment.run(c_ms=2.0, b_bytes_per_s=2 * ap["b_bytes_per_s"])
bundled = experiment.run(c_ms=2.0, q=ap["q"] // 2, v_bytes=ap["v_bytes"] * 2)
assert fast["ledger"]["speedup"] > 1 > bundled["ledger"]["speedup"]
page.glue("ex3_b_gb_per_s", fast["parameters"]["b_bytes_per_s"] / 1e9, 6)
page.glue("ex3_fast_comm_ms", fast["ledger"]["comm_ms"], 6)
page.glue("ex3_fast_two_ms", fast["ledger"]["two_ms"], 6)
page.glue("ex3_fast_speedup", fast["ledger"]["speedup"], 2)
page.glue("ex3_q", bundled["parameters"]["q"], 0)
page.glue("ex3_v_mb", bundled["parameters"]["v_bytes"] / 1e6, 6)
page.glue("ex3_bundled_comm_ms", bundled["ledger"]["comm_ms"], 6)
page.glue("ex3_bundled_two_ms", bundled["ledger"]["two_ms"], 6)
page.glue("ex3_startup_saved_ms", ex2["ledger"]["comm_ms"] - bundled["ledger"]["comm_ms"], 6)
