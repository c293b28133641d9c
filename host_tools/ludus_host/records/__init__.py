"""Game records on the laptop: reading a record file, its notes in words, and a season's table."""
