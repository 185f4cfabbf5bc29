"""referee.web."""
