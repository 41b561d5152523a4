# The code of section tp-11-misconceptions, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: tp

# %% glue [hide-cell]
demo, sc = tp["demo"], tp["scenarios"]
claims = {c["id"]: c for c in experiment.claims()}
page.glue("tp8", demo[3]["t"], 0)
page.glue("tp16", demo[4]["t"], 0)
page.glue("speedup_16_over_8", tp["speedup_16_over_8"], 2)
page.glue("reported_low_pct", 100 * sc["tp16_over_tp8_reported"][0], 0)
page.glue("reported_high_pct", 100 * sc["tp16_over_tp8_reported"][1], 0)
page.glue("t2", demo[1]["t"])
page.glue("ring_t2", demo[1]["ring_factor"])
page.glue("ring_t8", demo[3]["ring_factor"])
page.glue("ring_t32", demo[-1]["ring_factor"])
page.glue("stated_half", claims["ring_half"]["stated"], 1)
page.glue("stated_limit", claims["ring_limit"]["stated"], 1)
page.glue("oversized_overlap_degree", sc["oversized_overlap_degree"], 0)
page.glue("collectives", tp["collectives_per_layer"])
