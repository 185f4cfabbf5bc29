"""`referee serve` and the command line: the ASGI front, hypercorn and its workers, export, import and backup."""
