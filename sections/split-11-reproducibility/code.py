# The code of section split-11-reproducibility, which its four editions run; edit it here, then `make notebooks`.
# 2 cells after the head (the parameters and setup cells, written by tools/notebooks.py).
# %% parameters: split

# %% glue [hide-cell]
import platform
import matplotlib
page.glue("python_version", platform.python_version())
page.glue("matplotlib_version", matplotlib.__version__)
record = r["source_record"]   # what the article records about its own run and sources
page.glue("source_python_version", record["article_python_version"])
page.glue("source_matplotlib_version", record["article_matplotlib_version"])
page.glue("sources_accessed", page.date(record["sources_accessed"]))
page.glue("megatron_version", record["megatron_arxiv_version"])
page.glue("megatron_date", page.date(record["megatron_arxiv_date"]))

# %% from-experiment-import
from experiment import run
r = run()
print(r['matrix']['full'])
for case in r['cases']:
    print(round(case['one_ms'], 6), round(case['two_ms'], 6), round(case['speedup'], 6))
