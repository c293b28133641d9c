"""Pictures of a PCB as SVG, one per side, drawn from its geometry (outline, pads, tracks, vias, parts'
outlines and references, the board top's holes above it): what a maker sees before ordering. The
underside is drawn mirrored, as it is seen when the board is turned over. Stdlib only."""

COLOURS = {
    "board": "#1d5c3a",
    "copper_top": "#c8963e",
    "copper_bottom": "#4f7fbf",
    "pad": "#e6c46a",
    "via": "#d0d0d0",
    "outline": "#f2f2f2",
    "text": "#ffffff",
    "hole": "#ffffff",
}


def _f(v: float) -> str:
    return ("%.2f" % v).rstrip("0").rstrip(".")


def svg(geometry: dict, side: str) -> str:
    """The picture of SIDE ("top" or "bottom") of the board GEOMETRY describes (engine.geometry)."""
    w, h = geometry["width"], geometry["height"]
    layer = 0 if side == "top" else 1
    scale_px = 1200 / max(w, h)
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-5 -12 %s %s">'
        % (round((w + 10) * scale_px), round((h + 17) * scale_px), _f(w + 10), _f(h + 17)),
        "<style>.t{stroke:%s;stroke-linecap:round;fill:none}.o{stroke:%s;fill:none}"
        ".p{fill:%s}.v{fill:%s}.r{font:1.1px sans-serif;fill:%s;text-anchor:middle}"
        ".c{stroke:#ffffff66;stroke-width:0.12;fill:none}.k{stroke:#ffffffaa;stroke-width:0.2;"
        "stroke-dasharray:1 1;fill:none}.b{fill:%s}</style>"
        % (
            COLOURS["copper_top"] if side == "top" else COLOURS["copper_bottom"],
            COLOURS["outline"],
            COLOURS["pad"],
            COLOURS["via"],
            COLOURS["text"],
            COLOURS["board"],
        ),
        '<text x="0" y="-5" style="font:5px sans-serif;fill:#333">%s: %s, seen from %s</text>'
        % (
            geometry["title"],
            "top (component side facing the board top)" if side == "top" else "underside",
            "above" if side == "top" else "below (mirrored)",
        ),
        '<g transform="%s">' % ("" if side == "top" else "translate(%s 0) scale(-1 1)" % _f(w)),
        '<rect class="b" x="0" y="0" width="%s" height="%s"/>' % (_f(w), _f(h)),
    ]
    if side == "top":
        for x, y, r in geometry["top_holes"]:
            out.append('<circle class="k" cx="%s" cy="%s" r="%s"/>' % (_f(x), _f(y), _f(r)))
    for t in geometry["tracks"]:
        if t[0] == layer:
            out.append(
                '<path class="t" stroke-width="%s" d="M%s %sL%s %s"/>' % (_f(t[5]), *(_f(v) for v in t[1:5]))
            )
    for p in geometry["pads"]:
        if layer in p[0]:
            x0, y0, x1, y1 = p[1:5]
            if p[5]:
                out.append(
                    '<circle class="p" cx="%s" cy="%s" r="%s"/>'
                    % (_f((x0 + x1) / 2), _f((y0 + y1) / 2), _f((x1 - x0) / 2))
                )
            else:
                out.append(
                    '<rect class="p" x="%s" y="%s" width="%s" height="%s"/>'
                    % (_f(x0), _f(y0), _f(x1 - x0), _f(y1 - y0))
                )
    for x, y in geometry["vias"]:
        out.append('<circle class="v" cx="%s" cy="%s" r="0.3"/>' % (_f(x), _f(y)))
    for x, y, r in geometry["holes"]:
        out.append('<circle cx="%s" cy="%s" r="%s" fill="%s"/>' % (_f(x), _f(y), _f(r), COLOURS["hole"]))
    for ref, fside, x0, y0, x1, y1 in geometry["parts"]:
        if fside != side:
            continue
        out.append(
            '<rect class="c" x="%s" y="%s" width="%s" height="%s"/>'
            % (_f(x0), _f(y0), _f(x1 - x0), _f(y1 - y0))
        )
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        flip = "" if side == "top" else ' transform="translate(%s 0) scale(-1 1)"' % _f(2 * cx)
        out.append('<text class="r" x="%s" y="%s"%s>%s</text>' % (_f(cx), _f(cy + 0.4), flip, ref))
    out.append('<rect class="o" stroke-width="0.4" x="0" y="0" width="%s" height="%s"/>' % (_f(w), _f(h)))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"
