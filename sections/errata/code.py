# The code of section errata, which its four editions run; edit it here, then `make notebooks`.
# 3 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: ledger

# %% glue [hide-cell]
from measure import tp_analysis
from present import FLAGGED   # the statuses of the claims that do not hold
# the articles' own parameters, and what PyTorch's tensor parallelism communicates (tp-13)
ledger = experiment.claims(measured=tp_analysis.ledger_values(tp_analysis.load()))
errata = [c for c in ledger if c["status"] in FLAGGED]
unverifiable = [c for c in ledger if c["status"] == "cannot be recomputed from the article"]
page.glue("errata_count", len(errata), 0)
page.glue("unverifiable_count", len(unverifiable), 0)
for c in unverifiable:
    page.glue(f"{c['id']}_stated", page.claim_value(c, c["stated"]))
    if c["context_value"] is not None:
        page.glue(f"{c['id']}_context", page.num(c["context_value"], 3))

# %% ledger [remove-input]
page.ledger(ledger, statuses=FLAGGED, targets=True)   # the entries sections' markers link to

# %% ledger-2 [remove-input]
page.ledger(ledger, statuses=("cannot be recomputed from the article",))
