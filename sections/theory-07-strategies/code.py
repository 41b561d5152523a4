# The code of section theory-07-strategies, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
mem, facts = th["memory"], th["facts"]
page.glue("fp16_bytes", mem["fp16_bytes"])
claims = {c["id"]: c for c in experiment.claims()}
page.glue("a100_memory_gb", facts["a100_memory_gb"])
page.glue("claimed_b", claims["a100_holds_70b"]["stated"], 0)
page.glue("claimed_gb", mem["claimed_70b_fp16_gb"], 0)
page.glue("max_b", mem["max_fp16_parameters_per_a100_billions"], 0)
page.glue("parameters_b", facts["parameters_b"])
page.glue("weights_fp16_gb", mem["weights_fp16_gb"])

# %% figure-pipeline-bubble [remove-input]
page.figure(figures.figure_pipeline_bubble)
