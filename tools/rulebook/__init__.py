"""tools.rulebook."""
