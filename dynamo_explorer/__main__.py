"""``python -m dynamo_explorer ...``: the ``dynamo-explorer`` command."""

import sys

from .cli import main

sys.exit(main())
