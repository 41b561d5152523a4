# The code of section claims, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: ledger

# %% glue [hide-cell]
from measure import tp_analysis
# the articles' own parameters, and what PyTorch's tensor parallelism communicates (tp-13)
ledger = experiment.claims(measured=tp_analysis.ledger_values(tp_analysis.load()))
counts = {status: sum(c["status"] == status for c in ledger) for status in
          ("reproduces", "does not reproduce", "conflicts with well-known external facts",
           "cannot be recomputed from the article")}
page.glue("claims_total", len(ledger), 0)
page.glue("claims_reproduced", counts["reproduces"], 0)
page.glue("claims_wrong", counts["does not reproduce"], 0)
page.glue("claims_external", counts["conflicts with well-known external facts"], 0)
page.glue("claims_unverifiable", counts["cannot be recomputed from the article"], 0)
page.glue("claims_article1", sum(c["article"] == "000" for c in ledger), 0)
page.glue("claims_article2", sum(c["article"] == "002" for c in ledger), 0)
page.glue("claims_article3", sum(c["article"] == "004" for c in ledger), 0)

# %% ledger [remove-input]
page.ledger(ledger)
