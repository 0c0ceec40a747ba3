"""``python -m omoide``: the ``omoide`` command (``omoide.cli:main``), for an environment whose
PATH does not hold the script (a virtual environment not activated, a checkout on PYTHONPATH)."""

from omoide.cli import main

main(prog_name="omoide")
