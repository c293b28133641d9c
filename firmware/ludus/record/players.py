"""Players by name: what each seat's player is called, as config.json, the USB link, the simulator and
the game record carry it (docs/club.md). A seat nobody named is called by its colour ("green").

    name_fault("Søren")                  # None: a good name
    players_fault({0: "Anna", 2: "anna"})  # 'two seats are called "anna"...'
"""

MAX_NAME = 16  # characters: a column of the season table, a line of the simulator's seat list


def name_fault(name):
    """What is wrong with a player's name (None if nothing): 1 to 16 characters, none of them a control
    character, no space at either end."""
    if not isinstance(name, str):
        return "a name is text, not %r" % (name,)
    if not name or len(name) > MAX_NAME:
        return "name %r: 1 to %d characters" % (name, MAX_NAME)
    if name.strip() != name:
        return "name %r: no space at either end" % (name,)
    for ch in name:
        if ch < " " or ch == "\x7f":
            return "name %r: no control characters" % (name,)
    return None


def players_fault(players):
    """What is wrong with {seat number: name} (None if nothing): each name good, no two the same (a
    season counts one player's points under one name; "Anna" and "anna" are one)."""
    seen = {}
    for seat in players:
        name = players[seat]
        fault = name_fault(name)
        if fault:
            return fault
        key = name.lower()
        if key in seen:
            return "two seats are called %r: each player needs a name of their own" % (name,)
        seen[key] = seat
    return None


def seat_players(seats, names, colour_of):
    """{seat: name} for the seats of a game: the name given in `names` ({seat: name}), else the seat's
    colour's name, colour_of(seat). A colour's name another seat's player has taken gets the seat
    number after it, so no two seats share a name."""
    out = {}
    taken = {}
    for seat in seats:
        name = names.get(seat) if names else None
        if name:
            out[seat] = name
            taken[name.lower()] = True
    for seat in seats:
        if seat not in out:
            name = colour_of(seat)
            if name in taken:
                name = "%s %d" % (name, seat + 1)
            out[seat] = name
            taken[name] = True
    return out
