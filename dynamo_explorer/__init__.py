"""The command line, ``dynamo-explorer`` (``python -m dynamo_explorer``): a front end of the engine (``compiler``)
beside the ``%%dynamo`` magic (``kernel_ext``), writing its files through the same output module
(``kernel_ext.outputs``).

- ``cli.py``: the parser and ``run SCRIPT.py``; ``open_cmd.py``: ``open TRACE``; ``nproc.py`` and ``rank_run.py``:
  ``run --nproc N`` under torchrun;
- ``terminal.py``: the report's summary at a terminal (what ``run`` and ``open`` print without ``--json``/``--html``);
- ``say.py``: the command line's own lines.

The engine imports nothing of this package (``tests/engine/test_import_graph.py``).
"""
