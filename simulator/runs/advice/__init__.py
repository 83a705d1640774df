"""``president advise``: tips mined from champion, in words, each measured (docs/strategies.md, "Advice a person can use")."""
