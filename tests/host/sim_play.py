"""Playing on the simulator's table as people do, for the tests: a press of the die button, a move's pieces
carried out colour by colour, every seat a bot with a person carrying out what the board lights."""

from ludus.games import position
from ludus_host.virtual.board import game_colours


def press(table, held=100, rest=400):
    table.act({"do": "button", "down": True})
    table.advance(table.now + held)
    table.act({"do": "button", "down": False})
    table.advance(table.now + rest)


def counts_of(game):
    counts = bytearray(len(game.place_names))
    game.fill_counts(counts)
    return counts


def carry_out(t, move_text):
    """A move's pieces moved on the table as a player moves them: what leaves lifted, then what
    arrives put down, each piece in the colour the game has it."""
    game = t.referee.game
    after_game = position(game.notation())
    after_game.push(after_game.parse_move(move_text))
    before, after = counts_of(game), counts_of(after_game)
    want = game_colours(t.referee.adapter, after_game)
    board, sim = t.board, t.sim.physical
    puts = []
    for p, name in enumerate(game.place_names):
        cells = [board.cell_id(c) for c in board.cells_of_place(board.place_id(name))]
        for _ in range(before[p] - after[p]):
            t.act({"do": "lift", "cell": next(c for c in cells if sim.counts[sim.cells[c]])})
        if after[p] > before[p]:
            have = list(sim.colours_by_place().get(name, []))
            missing = list(want.get(name, []))
            for colour in have:
                if colour in missing:
                    missing.remove(colour)
            for k in range(after[p] - before[p]):
                puts.append(
                    (
                        next(c for c in cells if not sim.counts[sim.cells[c]])
                        if len(cells) > 1
                        else cells[0],
                        missing[k],
                    )
                )
    t.advance(t.now + 150)
    for cell, colour in puts:
        t.act({"do": "place", "cell": cell, "colour": colour})
    t.advance(t.now + 500)


def bots_play_out(t, limit):
    """Every seat a bot: wait for each lit bot move and carry it out as a person would. Returns the
    bot events' moves, in order."""
    chosen = []
    for _ in range(limit):
        if t.state()["phase"] == "over":
            break
        t.advance(t.now + 1100)
        ref = t.referee
        if ref.situation == 2:  # pending: a move the sensors cannot see done; the person says so
            press(t)
            continue
        if ref.bot_move() is not None and ref.situation == 3:
            text = str(ref.bot_move())
            chosen.append(text)
            carry_out(t, text)
    return chosen
