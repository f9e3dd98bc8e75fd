"""The RNG certification report: one self-contained HTML page for the operator to file.

It holds what a test lab's RNG report holds: the generator, the date and machine, the
sample sizes, every test with its statistic, p-value and verdict at 99 %, the
Holm-corrected verdict of the whole family, the outside batteries' results and what
could not run; with histograms of each stream against its exact probabilities, the
distribution of the p-values and the card-position table, as PNG images embedded in
base64 (no file beside it, nothing fetched).

>>> from pelisali.rng import SeededRng
>>> from pelisali.analysis.rng_certify import certify
>>> run = certify(SeededRng(1), ["boule"], draws=10_000, shuffle_count=0,
...               dieharder_tests=(), nist_bits=0)
>>> page = render(run)
>>> page.startswith("<!DOCTYPE html>"), "data:image/png;base64," in page
(True, True)
"""

from __future__ import annotations

import base64
import html
import io
import math
from typing import TYPE_CHECKING

import numpy as np

from pelisali.analysis.rng_battery import ALPHA
from pelisali.analysis.rng_certify import Certification, Observed

if TYPE_CHECKING:
    from matplotlib.figure import Figure

STYLE = """
body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:70rem;padding:0 1rem;
color:#111}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem;display:block;
overflow-x:auto;max-width:100%}
th,td{border:1px solid #bbb;padding:.2rem .5rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#05612a;font-weight:600}.fail{color:#a40000;font-weight:700}
.verdict{font-size:1.4rem;padding:.6rem;border:2px solid currentColor;display:inline-block}
figure{display:inline-block;margin:.3rem}img{max-width:100%}
"""


def render(run: Certification) -> str:
    """The whole report as one HTML page."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
             f"<title>RNG certification: {_e(run.generator)}</title>"
             f"<style>{STYLE}</style></head><body>",
             "<h1>Pelisali RNG certification report</h1>", _verdict(run), _header(run),
             _summary(run), "<h2>p-values</h2>", _figure(_p_value_plot(run),
                                                        "p-values of every test")]
    if run.observed:
        parts.append("<h2>Outcomes against their exact probabilities</h2><p>Each bar is "
                     "an outcome's count less its expected count, in standard deviations; "
                     "the dashed lines are the 99 % band, which a sound generator's bars "
                     "leave about once in a hundred.</p>")
        parts.extend(_figure(_histogram(o), o.source) for o in run.observed)
    if run.positions is not None:
        parts.append("<h2>Card positions after the shuffle</h2>")
        parts.append(_figure(_positions_plot(run.positions), "card × position counts"))
    parts.append(_results_table(run))
    if run.not_run:
        rows = "".join(f"<tr><td>{_e(n.battery)}</td><td>{_e(n.test)}</td>"
                       f"<td>{_e(n.reason)}</td></tr>" for n in run.not_run)
        parts.append("<h2>Not run</h2><table><tr><th>battery</th><th>test</th>"
                     f"<th>why</th></tr>{rows}</table>")
    parts.append("<p>Methods: docs/rng.md. Each test is judged at 99 % confidence "
                 f"(p ≥ {ALPHA}); the verdict corrects the family of "
                 f"{len(run.results)} tests by Holm–Bonferroni, so a sound generator "
                 "fails it less than once in a hundred runs.</p></body></html>")
    return "\n".join(parts)


def _verdict(run: Certification) -> str:
    failed = sum(not c.passed for c in run.corrected)
    if run.passed:
        return ("<p class='verdict pass'>PASS: no test fails after the Holm–Bonferroni "
                f"correction at 99 % ({len(run.results)} tests)</p>")
    return (f"<p class='verdict fail'>FAIL: {failed} of {len(run.results)} tests fail "
            "after the Holm–Bonferroni correction at 99 %</p>")


def _header(run: Certification) -> str:
    rows = {"generator": run.generator,
            "chance draws by": run.drawer,
            "started (UTC)": run.started.isoformat(),
            "finished (UTC)": run.finished.isoformat() if run.finished else "",
            "rounds a game": f"{run.draws:,}",
            "shuffles (52 cards; 4 and 5 cards)": f"{run.shuffle_count:,}; "
                                                  f"{10 * run.shuffle_count:,} each",
            "NIST SP 800-22 bits": f"{run.nist_bits:,}",
            **run.machine}
    body = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows.items())
    return f"<h2>Run</h2><table>{body}</table>"


def _summary(run: Certification) -> str:
    by_source: dict[str, list[bool]] = {}
    for c in run.corrected:
        by_source.setdefault(c.result.source, []).append(c.result.passed)
    rows = "".join(f"<tr><td>{_e(s)}</td><td>{_e(run.drawn_by.get(s, ''))}</td>"
                   f"<td class='n'>{len(v)}</td><td class='n'>{sum(not x for x in v)}</td>"
                   "</tr>" for s, v in by_source.items())
    return ("<h2>Sources</h2><table><tr><th>source</th><th>drawn by</th><th>tests</th>"
            f"<th>below 0.01 alone</th></tr>{rows}</table>")


def _results_table(run: Certification) -> str:
    rows = []
    for c in run.corrected:
        r = c.result
        stat = "" if math.isnan(r.statistic) else f"{r.statistic:.4g}"
        alone = "<span class='pass'>pass</span>" if r.passed else "<span class='fail'>fail</span>"
        family = ("<span class='pass'>pass</span>" if c.passed
                  else "<span class='fail'>FAIL</span>")
        rows.append(f"<tr><td>{_e(r.source)}</td><td>{_e(r.test)}</td>"
                    f"<td class='n'>{stat}</td><td class='n'>{'' if r.df is None else r.df}</td>"
                    f"<td class='n'>{r.p_value:.4g}</td><td>{alone}</td>"
                    f"<td class='n'>{c.adjusted:.4g}</td><td>{family}</td>"
                    f"<td class='n'>{r.samples:,}</td><td>{_e(r.detail)}</td></tr>")
    return ("<h2>Every test</h2><table><tr><th>source</th><th>test</th><th>statistic</th>"
            "<th>df</th><th>p-value</th><th>at 99 %</th><th>Holm p</th><th>family</th>"
            "<th>samples</th><th>detail</th></tr>" + "".join(rows) + "</table>")


def _figure(fig: Figure, caption: str) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f"<figure><img alt='{_e(caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _new(width: float = 5.0, height: float = 2.6) -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig: Figure = plt.figure(figsize=(width, height))
    return fig


def _histogram(o: Observed) -> Figure:
    """Each outcome's standardised deviation from its exact probability, with the 99 %
    band: a bias shows as bars past the band (plain counts of equally likely outcomes
    all look alike)."""
    fig = _new()
    ax = fig.add_subplot()
    x = np.arange(o.counts.size)
    expected = o.samples * o.probabilities
    z = (o.counts - expected) / np.sqrt(expected * (1 - o.probabilities))
    ax.bar(x, z, color=np.where(np.abs(z) > 2.5758, "#a40000", "#1f77b4"))
    for edge in (-2.5758, 2.5758):
        ax.axhline(edge, color="#a40000", linewidth=0.8, linestyle="--")
    ax.set_ylim(min(-4.0, float(z.min()) - 0.5), max(4.0, float(z.max()) + 0.5))
    ax.set_title(f"{o.source}: {o.samples:,} draws", fontsize=9)
    ax.set_xlabel("outcome")
    ax.set_ylabel("(observed − expected) / σ", fontsize=8)
    return fig


def _p_value_plot(run: Certification) -> Figure:
    fig = _new(9, 3)
    p = np.sort(np.array([r.p_value for r in run.results]))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    left.hist(p, bins=20, range=(0, 1), color="#7aa6c2")
    left.axhline(p.size / 20, color="#a40000")
    left.set_title("histogram (uniform for a sound generator)", fontsize=9)
    if p.size:
        right.plot((np.arange(p.size) + 0.5) / p.size, p, ".", color="#1f4e79")
    right.plot([0, 1], [0, 1], color="#a40000")
    right.set_title("sorted p-values against uniform quantiles", fontsize=9)
    return fig


def _positions_plot(counts: np.ndarray) -> Figure:
    fig = _new(5, 4)
    ax = fig.add_subplot()
    image = ax.imshow(counts, cmap="viridis")
    ax.set_xlabel("card (unshuffled position)")
    ax.set_ylabel("position after the shuffle")
    fig.colorbar(image, ax=ax)
    return fig


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)
