# The code of section split-04-break-even, which its four editions run; edit it here, then `make notebooks`.
# 5 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
from model.split import FAST_LINK_FACTOR, SLOW_LINK_DIVISOR
p, be = r["parameters"], r["break_even"]
case = {c["name"]: c for c in r["cases"]}
page.glue("eta", p["eta"])
page.glue("comm_ms", be["comm_ms"])
page.glue("factor", be["factor"], 6)
page.glue("eta_limit", 0.5, 1)
page.glue("break_even_c_ms", be["c_ms"])
page.glue("small_c_ms", case["small_c"]["c_ms"], 6)
page.glue("small_c_one_ms", case["small_c"]["one_ms"], 6)
page.glue("small_c_two_ms", case["small_c"]["two_ms"], 6)
page.glue("c_ms", p["c_ms"])
page.glue("slow_divisor", SLOW_LINK_DIVISOR)
page.glue("fast_factor", FAST_LINK_FACTOR)
page.glue("slow_b_gb_per_s", case["slow_link"]["b_bytes_per_s"] / 1e9, 6)
page.glue("slow_comm_ms", case["slow_link"]["comm_ms"], 6)
page.glue("slow_two_ms", case["slow_link"]["two_ms"], 6)
page.glue("fast_b_gb_per_s", case["fast_link"]["b_bytes_per_s"] / 1e9, 6)
page.glue("fast_comm_ms", case["fast_link"]["comm_ms"], 6)
page.glue("fast_two_ms", case["fast_link"]["two_ms"], 6)
page.glue("q", p["q"])
page.glue("infinite_comm_ms", r["infinite_bandwidth"]["comm_ms"], 6)
page.glue("infinite_two_ms", r["infinite_bandwidth"]["two_ms"], 6)

# %% by-hand
# The break-even point at this page's parameters (model/split.py), in ms
from model.split import comm_ms, saving_factor
h_ms = comm_ms(q, ell_ms, v_bytes, b_bytes_per_s)   # H = Q(ℓ + V/B)
saved = saving_factor(eta)                          # 1 − 1/(2η), the share of C saved
if saved > 0:
    print(f"H = {h_ms:.6g} ms, 1 − 1/(2η) = {saved:.6g}")
    print(f"C* = H / (1 − 1/(2η)) = {h_ms / saved:.6g} ms")
else:
    print(f"1 − 1/(2η) = {saved:.6g} ≤ 0, so no C* exists")

# %% table [remove-input]
page.table(["case", "C (ms)", "S (ms)", "B (GB/s)", "H (ms)", "T₁ (ms)", "T₂ (ms)", "T₁/T₂"],
           [[page.case_label(c), page.cell(c["c_ms"], 3), page.cell(c["s_ms"], 2),
             page.cell(c["b_bytes_per_s"] / 1e9, 1), page.cell(c["comm_ms"], 2),
             page.cell(c["one_ms"], 3), page.cell(c["two_ms"], 3), page.cell(c["speedup"], 3)]
            for c in r["cases"]])

# %% figure-versus-c [remove-input]
page.figure(figures.figure_versus_c)

# %% figure-versus-b [remove-input]
page.figure(figures.figure_versus_b)
