# The code of section split-07-measurement, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
page.glue("full", r["matrix"]["full"])
page.glue("case_count", len(r["cases"]))
page.glue("grid_points", len(r["sweeps"]["versus_c"]["c_ms"]))
page.glue("megatron_version", r["source_record"]["megatron_arxiv_version"])
page.glue("megatron_date", page.date(r["source_record"]["megatron_arxiv_date"]))
