"""The rules search's measuring tools: hit rates on question sets, query speed, and docs/rules.md."""
