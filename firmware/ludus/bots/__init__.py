"""Players the board can run itself: bots and the random self-play used by benchmarks and tests."""
