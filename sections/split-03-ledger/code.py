# The code of section split-03-ledger, which its four editions run; edit it here, then `make notebooks`.
# 5 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
p, led = r["parameters"], r["ledger"]
page.glue("s_ms", p["s_ms"], 6)
page.glue("c_ms", p["c_ms"])
page.glue("eta", p["eta"])
page.glue("eta_percent", 100 * p["eta"], 4)
page.glue("q", p["q"])
page.glue("ell_ms", p["ell_ms"], 6)
page.glue("v_bytes", p["v_bytes"], 0)
page.glue("b_bytes_per_s", p["b_bytes_per_s"], 0)
page.glue("b_gb_per_s", p["b_bytes_per_s"] / 1e9)
page.glue("half_c_ms", led["half_c_ms"])
page.glue("wire_ms", led["wire_ms"], 6)
page.glue("transfer_ms", led["transfer_ms"], 6)
page.glue("comm_ms", led["comm_ms"])
page.glue("parallel_compute_ms", led["parallel_compute_ms"])
page.glue("one_ms", led["one_ms"], 6)
page.glue("two_ms", led["two_ms"])
page.glue("speedup", led["speedup"])

# %% by-hand
# The two ledgers at this page's parameters, term by term (model/split.py), in ms
from model.split import comm_ms, one_device_ms, parallel_compute_ms
h_ms = comm_ms(q, ell_ms, v_bytes, b_bytes_per_s)      # H = Q(ℓ + V/B)
t1_ms = one_device_ms(s_ms, c_ms)                      # T1 = S + C
t2_ms = s_ms + parallel_compute_ms(c_ms, eta) + h_ms   # T2 = S + C/(2η) + H
print(f"H = {h_ms:.6g} ms")
print(f"T1 = {t1_ms:.6g} ms, T2 = {t2_ms:.6g} ms, T1/T2 = {t1_ms / t2_ms:.4g}")

# %% table [remove-input]
page.table(["parameter", "value"],
           [["S", f"{page.num(p['s_ms'], 6)} ms"], ["C", f"{page.num(p['c_ms'], 6)} ms"],
            ["η", page.num(p["eta"], 6)], ["Q", p["q"]], ["ℓ", f"{page.num(p['ell_ms'], 6)} ms"],
            ["V", f"{page.num(p['v_bytes'], 0)} {page.unit('bytes')}"],
            ["B", f"{page.num(p['b_bytes_per_s'] / 1e9, 6)} GB/s = {page.num(p['b_bytes_per_s'], 0)} {page.unit('bytes')}/s"]])

# %% table-2 [remove-input]
page.table(["", "ms"],
           [["ℓ + V/B", page.cell(led["transfer_ms"], 2)], ["H = Q(ℓ + V/B)", page.cell(led["comm_ms"], 2)],
            ["C/(2η)", page.cell(led["parallel_compute_ms"], 2)], ["T₁ = S + C", page.cell(led["one_ms"], 2)],
            ["T₂ = S + C/(2η) + H", page.cell(led["two_ms"], 2)]])

# %% figure-ledger [remove-input]
page.figure(figures.figure_ledger)
