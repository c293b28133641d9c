"""Generate, check and draw board definition files (hardware/boards/*.json; format in docs/boards.md).

ludus boards generate [--out DIR] [--game GAME ...] [--pitch MM] [--direction ...] [...]
ludus boards validate FILE...
ludus boards draw FILE [--svg OUT] [--kind layout|drill|chains]   (without --svg: a text map)
ludus boards hardware [--out hardware]  the parts lists, drawings, pin map and circuits of hardware/
ludus boards circuit [--out hardware]   each board's circuit: circuit.net, schematic.svg, bom.csv
ludus boards pcb [--out hardware] [--board NAME]   each finished board's PCB from its circuit
                                                   (hardware/BOARD/pcb/); --board tries any board
"""

import argparse
import sys

from ludus.board.definition import BoardDefinition
from ludus.errors import BoardDefinitionError, ConfigError, NotationError

from ludus_host.args import decimal, output_file, output_folder, refuse_overwriting, whole
from ludus_host.boards import definitions as boards
from ludus_host.boards import documents as hardware
from ludus_host.paths import check_json, read_text, write_atomically
from ludus_host.pcb import FINISHED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    sub.required = True

    gen = sub.add_parser("generate", help="write GAME.json definitions made from parameters")
    gen.add_argument(
        "--out",
        type=output_folder,
        default="hardware/boards",
        help="folder to write, made if missing (default hardware/boards, from where you run it)",
    )
    gen.add_argument(
        "--game", action="append", choices=boards.GAMES, help="a game to generate (repeatable; default all)"
    )
    gen.add_argument(
        "--pitch", type=decimal(5, 200), help="cell spacing in mm, 5..200 (default: 25; 30 for ludo40)"
    )
    gen.add_argument(
        "--direction", choices=("clockwise", "counterclockwise"), help="Ludo direction of travel"
    )
    gen.add_argument("--led-order", choices=boards.ORDERS, help="LED chain order (default serpentine)")
    gen.add_argument("--channel-order", choices=boards.ORDERS, help="sensor channel order (default rows)")
    gen.add_argument(
        "--bank-size", type=whole(1, 256), help="channels per multiplexer bank, 1..256 (default 16)"
    )
    gen.add_argument(
        "--sensor-kind", choices=("digital", "analog"), help="hall sensor kind (default digital)"
    )
    gen.add_argument(
        "--ma-per-channel",
        type=decimal(0, 100, low_open=True),
        help="mA per LED colour channel at full brightness (20)",
    )
    gen.add_argument("--supply-ma", type=whole(1, 20000), help="supply current in mA (default 500)")
    gen.add_argument(
        "--reserved-ma", type=whole(0, 20000), help="mA kept for the Pico and sensors (default 100)"
    )
    gen.add_argument(
        "--waiting-leds", type=whole(0, 4), help="LEDs for waiting rolls on Ludo boards, 0..4 (default 3)"
    )

    val = sub.add_parser("validate", help="check definition files and name every fault")
    val.add_argument("files", nargs="+", metavar="FILE")

    draw = sub.add_parser("draw", help="draw a definition: a text map, or an SVG with channels and LEDs")
    draw.add_argument("file", metavar="FILE")
    draw.add_argument("--svg", metavar="OUT", type=output_file, help="write an SVG drawing to OUT")
    draw.add_argument(
        "--kind",
        choices=("layout", "drill", "chains"),
        default="layout",
        help="layout: ids, channels, LEDs; drill: the 1:1 drilling template; chains: both chains' order",
    )

    hw = sub.add_parser(
        "hardware", help="write the parts lists, drawings, pin map and circuits (hardware/BOARD/...)"
    )
    hw.add_argument(
        "--out", type=output_folder, default="hardware", help="folder to write (default hardware)"
    )
    circ = sub.add_parser(
        "circuit",
        help="build, check and write each board's circuit: netlist, schematic, BOM (hardware/BOARD/)",
    )
    circ.add_argument(
        "--out", type=output_folder, default="hardware", help="folder to write (default hardware)"
    )
    pcb = sub.add_parser(
        "pcb",
        help="lay out, route and check each board's PCB; write its KiCad board, Gerbers, drill, position"
        " file, BOM and pictures (hardware/BOARD/pcb/; needs KiCad 6: apt-get install kicad)",
    )
    pcb.add_argument(
        "--out",
        type=output_folder,
        default="hardware",
        help="the hardware folder: circuits read from it, PCBs written to it (default hardware)",
    )
    pcb.add_argument(
        "--board",
        action="append",
        choices=("checkers", "ludo52", "ludo40", "ludo56", "ludo40-analog"),
        help="a board to make (repeatable; default the boards whose PCB is finished: %s)"
        % ", ".join(FINISHED),
    )


GENERATED = (
    "pitch",
    "direction",
    "led_order",
    "channel_order",
    "bank_size",
    "sensor_kind",
    "ma_per_channel",
    "supply_ma",
    "reserved_ma",
    "waiting_leds",
)  # the options of `generate` that are parameters of the generator


def run(args: argparse.Namespace) -> int:
    action = ACTIONS.get(args.action)
    if action is None:
        raise ConfigError("unknown action %r" % args.action)
    return action(args)


def _generate(args: argparse.Namespace) -> int:
    params = {}
    for key in GENERATED:
        value = getattr(args, key)
        if value is not None:
            if key == "ma_per_channel" and value == int(value):
                value = int(value)
            params[key] = value
    games = args.game or boards.GAMES
    for path in boards.write_all(args.out, games, **params):
        print(path)
    return 0


def _validate(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.files:
        try:
            board = _load(path)
        except BoardDefinitionError as exc:
            bad += 1
            print("ludus boards: %s" % exc, file=sys.stderr)
            continue
        print(
            "%s: ok (%s, %d cells, %d places, %d sensor channels, %d LEDs)"
            % (
                path,
                board.game,
                board.cell_count,
                len(board.place_names),
                board.channel_count,
                board.led_count,
            )
        )
    return 2 if bad else 0


def _draw(args: argparse.Namespace) -> int:
    refuse_overwriting([("--svg", args.svg)], [("the board definition", args.file)])
    _load(args.file)
    d = boards.load(args.file)
    if args.svg:
        draw = {"layout": boards.draw_svg, "drill": hardware.drill_svg, "chains": hardware.chains_svg}
        try:
            write_atomically(args.svg, draw[args.kind](d))
        except OSError as exc:
            raise ConfigError("cannot write %s: %s" % (args.svg, exc.strerror or exc)) from None
        print(args.svg)
    else:
        sys.stdout.write(boards.draw_text(d))
    return 0


def _pcb(args: argparse.Namespace) -> int:
    from ludus_host.pcb import outputs as pcb_outputs  # (SKiDL and the PCB job: 1.5 s, this branch only)

    boards_wanted = tuple(args.board) if args.board else FINISHED
    try:
        paths = pcb_outputs.write_all(args.out, boards_wanted, progress=lambda line: print(line, flush=True))
    except pcb_outputs.PcbFault as exc:
        print("ludus boards: %s" % exc, file=sys.stderr)
        return 1
    except OSError as exc:
        raise ConfigError("cannot write under %s: %s" % (args.out, exc.strerror or exc)) from None
    print("%d files written" % len(paths))
    return 0


def _documents(args: argparse.Namespace) -> int:
    from ludus_host.circuit import outputs  # (SKiDL: 1.5 s, this branch only)

    write = hardware.write_all if args.action == "hardware" else outputs.write_all
    try:
        for path in write(args.out, progress=lambda line: print(line, flush=True)):
            print(path)
    except outputs.CircuitFault as exc:
        print(
            "ludus boards: the circuit fails its checks, nothing of it written:\n%s" % exc,
            file=sys.stderr,
        )
        return 1
    except OSError as exc:
        raise ConfigError("cannot write under %s: %s" % (args.out, exc.strerror or exc)) from None
    return 0


ACTIONS = {
    "generate": _generate,
    "validate": _validate,
    "draw": _draw,
    "pcb": _pcb,
    "hardware": _documents,
    "circuit": _documents,
}


def _load(path: str) -> BoardDefinition:
    try:
        # UTF-8 text of a sane size, each key once, or a named fault
        check_json(read_text(path, "board definition", 1024 * 1024), "board definition", path)
    except NotationError as exc:
        raise BoardDefinitionError(str(exc)) from None
    board = BoardDefinition.load(path)
    boards.referee_checks(board, path)
    return board
