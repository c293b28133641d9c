"""The laptop side of the board's USB link: the client that reads and writes its JSON lines, and the
events put in words."""
