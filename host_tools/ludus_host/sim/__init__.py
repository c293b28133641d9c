"""The browser simulator (`ludus sim`): the server, the table it drives against the clock, the mirrors of
a real or emulated board, the words for people, and the page's static files."""
