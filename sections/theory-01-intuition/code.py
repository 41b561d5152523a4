# The code of section theory-01-intuition, which its four editions run; edit it here, then `make notebooks`.
# 1 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: theory

# %% glue [hide-cell]
p, tr, facts, real = r["parameters"], th["training"], th["facts"], th["single_a100"]
page.glue("days", p["th_single_device_days"])
page.glue("devices", p["th_devices"])
page.glue("naive_days", tr["naive_days"], 2)
page.glue("colleague_days", facts["colleague_days"])
page.glue("parameters_b", facts["parameters_b"])
page.glue("a100_memory_gb", facts["a100_memory_gb"])
page.glue("fp16_bytes", th["memory"]["fp16_bytes"])
page.glue("weights_fp16_gb", th["memory"]["weights_fp16_gb"])
page.glue("gpt3_flops", facts["gpt3_training_flops"], 2, scientific_notation=True)
page.glue("a100_tflops", facts["a100_peak_flops"] / 1e12, 0)
page.glue("days_at_peak", real["days_at_peak"], 0)
page.glue("years_at_peak", real["years_at_peak"], 1)
variant = th["variant"]
page.glue("variant_parameters_b", variant["parameters_b"], 1)
page.glue("adam_bytes", th["memory"]["adam_bytes_per_parameter"])
page.glue("variant_tokens_b", variant["tokens_b_at_peak"], 0)
page.glue("flops_per_parameter_token", variant["flops_per_parameter_token"])
