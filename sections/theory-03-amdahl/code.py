# The code of section theory-03-amdahl, which its four editions run; edit it here, then `make notebooks`.
# 4 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
ex = th["example"]
table_claims = [c for c in experiment.claims() if c["id"].startswith("amdahl_table_")]
wrong = [c for c in table_claims if c["status"] != "reproduces"]
worst = max(wrong, key=lambda c: abs(c["relative_error"]))
page.glue("example_s_pct", 100 * th["facts"]["example_serial"], 0)
page.glue("example_p_pct", 100 * (1 - th["facts"]["example_serial"]), 0)
for row in ex[:-1]:
    page.glue(f"example_n{row['devices']}", row["devices"], 0)
    page.glue(f"example_speedup_n{row['devices']}", row["speedup"], 2)
page.glue("example_limit", ex[-1]["speedup"], 0)
page.glue("table_cells", len(table_claims), 0)
page.glue("table_wrong", len(wrong), 0)
page.glue("worst_stated", worst["stated"], 2)
page.glue("worst_computed", worst["computed"], 2)
page.glue("worst_error_pct", 100 * abs(worst["relative_error"]), 0)
page.glue("s20_n4_stated", next(c for c in wrong if c["id"] == "amdahl_table_s20_n4")["stated"], 2)
page.glue("s20_n4_computed", th["table"][2]["speedups"][1], 2)

# %% by-hand
# Amdahl's speedup 1/(f + (1 − f)/N) at this page's serial fraction f (model/parallel_theory.py)
from model.parallel_theory import amdahl
for n in (2, 8, 64, 1024):
    print(f"N = {n:>4}: 1/(f + (1 − f)/N) = {amdahl(th_serial_fraction, n):.4g}")
if th_serial_fraction > 0:   # the limit as N grows without bound
    print(f"1/f = {1 / th_serial_fraction:.4g}")

# %% figure-amdahl [remove-input]
page.figure(figures.figure_amdahl)

# %% table [remove-input]
stated = {c["key"]: c for c in table_claims}
key = "parallel_theory.table.{}.speedups.{}"
page.table(["f", "N = 2", "N = 4", "N = 8", "N = 16", "N → ∞"],
           [[page.pct(row["serial"], 0)]
            + [page.cell(v, 2) + ("" if stated[key.format(i, j)]["status"] == "reproduces"
                                  else page.aside(page.word("source"),
                                                  page.cell(stated[key.format(i, j)]["stated"], 2) + " ✗"))
               for j, v in enumerate(row["speedups"])]
            + [page.cell(row["limit"], 2)] for i, row in enumerate(th["table"])])
