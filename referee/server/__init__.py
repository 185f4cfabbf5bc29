"""referee.server."""
