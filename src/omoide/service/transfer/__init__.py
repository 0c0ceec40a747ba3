"""Lossless export and import of one persona (issue 15 item 1).

Export streams the persona as JSON Lines (``engine/transfer_format.py``) from one read
snapshot. Import reads the file twice: a first pass (``scan``) checks every line and decides
what is there to restore; the second (``restore``) restores it in batches, one transaction
each, skipping what is already there, so a re-run after an interruption finishes the job and a
finished import run again changes nothing. A persona that already holds other data is refused
unless ``merge``, which skips a memory a normal write would call a duplicate. Without vectors
in the file (or with vectors of another model) the texts are embedded again.
"""

from omoide.service.transfer.records import Lines
from omoide.service.transfer.restore import ImportReport
from omoide.service.transfer.service import TransferService, supports_transfer

__all__ = ["ImportReport", "Lines", "TransferService", "supports_transfer"]
