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
