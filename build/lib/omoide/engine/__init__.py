"""Pure logic: no I/O, no clock, no settings lookups. Imports only ``omoide.model``,
the standard library and numpy."""
