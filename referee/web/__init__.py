"""The faces: the htmx pages, the JSON API, the live stream, and what they share (links, HTTP, security, logs)."""
