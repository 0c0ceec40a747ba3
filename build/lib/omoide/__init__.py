"""Omoide (思い出): a long-term memory server for AI personas and agents."""

__version__ = "0.1.0"
__all__ = ["__version__"]
