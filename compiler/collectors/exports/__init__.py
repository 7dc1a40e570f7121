"""One artifact kind, the run's ``torch.export`` calls (issue 43): what export saw, why it failed, what it assumed.

- ``exports.py``: the collector (each call recorded as it was made, the words of a failure's kind and its remedies);
- ``exports_torch.py``: what it asks of torch (its export entry points watched for the run, an ``ExportedProgram``
  and ``draft_export``'s report read, a failure classified).
"""
