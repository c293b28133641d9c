"""The first checks every reader of outside text makes (notation, presets, config.json, board files,
records, the USB link's lines): a number's ASCII digits within a length, and a JSON key named twice in
one object. A leaf: it imports nothing, and it is kept small, as every name it uses is interned on the
board (docs/bad-input.md, "Heap")."""


def ascii_digits(text, most):
    """True if text is 1..most of the ASCII digits 0-9: the one check every parser of numbers makes
    first (CPython's str.isdigit() and int() also take '²' and '٤'; the bound keeps int() from reading a
    5,000-digit number). The encoded length equals the length only for ASCII text."""
    return 0 < len(text) <= most and text.isdigit() and len(text.encode()) == len(text)


def repeated_key(text):
    """The first key named twice in one object of JSON text, or None. A JSON reader keeps the last one
    silently, so a board file, record or calibration with `"leds": 121` twice would be read as only one
    of them meant; every reader on the board refuses it, as the host's tools do. Reads the text once,
    holding one set of keys per open object; a syntax error is left to the JSON reader to name."""
    open_keys = []  # per open container: the keys met so far (an object) or None (an array)
    key_next = False
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            # the string's end by find (C), not character by character: a quote ends it unless an odd
            # number of backslashes stands before it
            j = text.find('"', i + 1)
            while j > 0:
                b = j - 1
                while text[b] == "\\":
                    b -= 1
                if (j - 1 - b) % 2 == 0:
                    break
                j = text.find('"', j + 1)
            if j < 0:
                j = n
            if key_next:
                k = text[i + 1 : j]
                if k in open_keys[-1]:
                    return k
                open_keys[-1].add(k)
                key_next = False
            i = j + 1
            continue
        if c == "{" or c == "[":
            if len(open_keys) >= 64:
                return None  # deeper than any file of ours: the JSON reader names it (nested too deeply)
            open_keys.append(set() if c == "{" else None)
            key_next = c == "{"
        elif c == "}" or c == "]":
            if open_keys:
                open_keys.pop()
            key_next = False
        elif c == ",":
            key_next = bool(open_keys) and open_keys[-1] is not None
        i += 1
    return None
