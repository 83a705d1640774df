"""Terminal play: input, screen and session."""
