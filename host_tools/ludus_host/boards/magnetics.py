"""The field of a piece's disc magnet at the hall sensors under the board, on and off its axis, and what
it means for sensing: how far off a cell's centre a piece is still seen, and what it does to its
neighbours' sensors (hardware/README.md, "Sensing where people put pieces").

    field_bz_mt(1.28, 8, 3, rho_mm=5, z_mm=7)     # Bz 5 mm off the axis, 7 mm below the magnet's face
    capture_radius_mm(...)                          # how far off centre a piece still switches its sensor

The magnet is a uniformly magnetised cylinder: the same field as a sheet of current Br/mu0 per metre of
height flowing round its side, summed here as circular loops (the field of one loop is closed-form in the
complete elliptic integrals, evaluated by the arithmetic-geometric mean) over the height by Gauss-Legendre
quadrature. On the axis this equals the closed-form formula of axial_field_mt, which a test checks."""

import math
from dataclasses import dataclass, field

Profile = tuple[list[float], float]  # Bz (mT) at each step off the axis, and the step (mm)

_GAUSS_POINTS = 48


def axial_field_mt(br_t: float, diameter_mm: float, height_mm: float, z_mm: float) -> float:
    """Flux density (mT) on the axis of a disc magnet, z mm from its face: the standard formula for an
    axially magnetised cylinder, B = Br/2 * ((z + h) / sqrt(R^2 + (z + h)^2) - z / sqrt(R^2 + z^2))."""
    r = diameter_mm / 2
    zh = z_mm + height_mm
    return 1000 * br_t / 2 * (zh / math.sqrt(r * r + zh * zh) - z_mm / math.sqrt(r * r + z_mm * z_mm))


def _elliptic_ke(m: float) -> tuple[float, float]:
    # complete elliptic integrals K(m), E(m) of parameter m = k^2, by the arithmetic-geometric mean
    a, b = 1.0, math.sqrt(1.0 - m)
    total = m / 2
    power = 1.0
    while abs(a - b) > 1e-15 * a:
        c = (a - b) / 2
        a, b = (a + b) / 2, math.sqrt(a * b)
        power *= 2
        total += power / 2 * c * c
    k = math.pi / (2 * a)
    return k, k * (1 - total)


def _loop_bz(a: float, rho: float, z: float) -> float:
    # Bz / (mu0 I) of a circular loop of radius a, at radius rho and height z from its plane
    if rho < 1e-9:
        return a * a / (2 * (a * a + z * z) ** 1.5)
    alpha2 = a * a + rho * rho + z * z - 2 * a * rho
    beta2 = a * a + rho * rho + z * z + 2 * a * rho
    k, e = _elliptic_ke(1 - alpha2 / beta2)
    return ((a * a - rho * rho - z * z) * e + alpha2 * k) / (2 * math.pi * alpha2 * math.sqrt(beta2))


def _gauss_legendre(n: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    nodes, weights = [], []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            step = p1 / dp
            x -= step
            if abs(step) < 1e-15:
                break
        nodes.append(x)
        weights.append(2 / ((1 - x * x) * dp * dp))
    return tuple(nodes), tuple(weights)


_NODES, _WEIGHTS = _gauss_legendre(_GAUSS_POINTS)


def field_bz_mt(br_t: float, diameter_mm: float, height_mm: float, rho_mm: float, z_mm: float) -> float:
    """The flux density component along the magnet's axis (mT, positive in the direction of the magnet's
    own field below it) at rho_mm off the axis and z_mm below the magnet's face: the component a hall
    switch lying flat under the board measures."""
    a = diameter_mm / 2
    total = 0.0
    for x, w in zip(_NODES, _WEIGHTS):
        total += w * _loop_bz(a, rho_mm, z_mm + height_mm * (x + 1) / 2)
    # sheet current density M = Br / mu0; mu0 cancels against the loop factor; the Jacobian is h/2
    return 1000 * br_t * total * height_mm / 2


@dataclass(frozen=True)
class Magnet:
    """A disc magnet in each piece's base."""

    grade: str
    br_min_t: float  # the remanence at the low end of the grade
    br_max_t: float
    diameter_mm: float
    height_mm: float

    def bz_mt(self, rho_mm: float, z_mm: float, br_t: float | None = None) -> float:
        return field_bz_mt(
            self.br_min_t if br_t is None else br_t, self.diameter_mm, self.height_mm, rho_mm, z_mm
        )


@dataclass(frozen=True)
class Switch:
    """A hall switch variant: its worst-case operate point and how it responds to the poles."""

    part: str
    bop_max_mt: float
    unipolar: bool
    source: str


@dataclass(frozen=True)
class Stack:
    """The layers between the magnet's face and the hall element, each with its tolerance (mm)."""

    layers: tuple[tuple[str, float, float], ...] = field(default_factory=tuple)

    @property
    def gap_mm(self) -> float:
        return sum(t for _, t, _ in self.layers)

    @property
    def tolerance_mm(self) -> float:
        return sum(tol for _, _, tol in self.layers)


def profile(
    magnet: Magnet, z_mm: float, br_t: float, step_mm: float = 0.25, reach_mm: float = 100.0
) -> Profile:
    """Bz (mT) at every step_mm off the axis from 0 to reach_mm, at depth z_mm (a table to interpolate)."""
    n = int(reach_mm / step_mm) + 2
    return [magnet.bz_mt(k * step_mm, z_mm, br_t) for k in range(n)], step_mm


def at(table: Profile, rho_mm: float) -> float:
    """The profile's value at rho_mm, linearly interpolated (0 beyond its reach)."""
    values, step = table
    i = int(rho_mm / step)
    if i + 1 >= len(values):
        return 0.0
    f = rho_mm / step - i
    return values[i] * (1 - f) + values[i + 1] * f


def capture_radius_mm(table: Profile, threshold_mt: float, step_mm: float = 0.1) -> float:
    """The farthest distance off the axis (0.1 mm steps) out to which the field stays at or above
    threshold_mt everywhere: a piece whose magnet is centred within it switches the sensor."""
    r = 0.0
    while at(table, r + step_mm) >= threshold_mt and r < 90:
        r += step_mm
    return round(r, 1)


@dataclass(frozen=True)
class SensingDesign:
    """Magnet, switch, the layers between them and the locating recess of every cell."""

    magnet: Magnet
    switch: Switch
    stack: Stack
    piece_base_mm: float
    recess_diameter_mm: float
    recess_depth_mm: float


@dataclass(frozen=True)
class RoleCapture:
    """How cells of one role sense: the capture radius alone (nominal) and in the worst case (weakest
    magnet, widest gap, every nearby cell holding a piece), and the strongest field the pieces on the
    other cells put on an empty cell's sensor (opposing: negative, along the sensed pole: positive)."""

    role: str
    cells: int
    nearest_mm: float
    nominal_mm: float
    worst_mm: float
    opposing_mt: float
    along_mt: float


def role_captures(d: dict, design: SensingDesign, pieces: int) -> list[RoleCapture]:
    """The capture of each role's cells on definition D (a parsed board file): the pieces - 1 cells
    nearest each cell hold a piece with the magnet's sensed pole down (the worst case for a unipolar
    switch: their fields oppose the cell's own piece)."""
    m, s, st = design.magnet, design.switch, design.stack
    nominal = profile(m, st.gap_mm, (m.br_min_t + m.br_max_t) / 2)
    weak = profile(m, st.gap_mm + st.tolerance_mm, m.br_min_t)
    strong = profile(m, max(0.5, st.gap_mm - st.tolerance_mm), m.br_max_t)
    cells = d["cells"]
    by_role: dict[str, list] = {}
    for c in cells:
        dists = sorted(math.hypot(c["x"] - o["x"], c["y"] - o["y"]) for o in cells if o is not c)[
            : pieces - 1
        ]
        fields = [at(strong, x) for x in dists]
        opposing = sum(f for f in fields if f < 0)
        along = sum(f for f in fields if f > 0)
        worst = capture_radius_mm(weak, s.bop_max_mt - opposing + along * (0 if s.unipolar else 1))
        by_role.setdefault(c["role"], []).append((dists[0], worst, opposing, along))
    out = []
    for role in sorted(by_role, key=lambda r: [c["role"] for c in cells].index(r)):
        rows = by_role[role]
        out.append(
            RoleCapture(
                role=role,
                cells=len(rows),
                nearest_mm=round(min(r[0] for r in rows), 1),
                nominal_mm=capture_radius_mm(nominal, s.bop_max_mt),
                worst_mm=min(r[1] for r in rows),
                opposing_mt=round(min(r[2] for r in rows), 2),
                along_mt=round(max(r[3] for r in rows), 2),
            )
        )
    return out
