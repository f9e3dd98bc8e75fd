"""A basic-strategy chart: the hard, soft and pair tables as coloured grids.

Drawn with matplotlib's Agg canvas directly (no pyplot, no global backend
change); the file type follows the suffix (``.png``, ``.svg``, ``.pdf``).

>>> import tempfile
>>> from pathlib import Path
>>> from pelisali.analysis.blackjack_ca import basic_strategy
>>> from pelisali.games.blackjack_rules import BlackjackConfig
>>> with tempfile.TemporaryDirectory() as tmp:
...     out = render_chart(basic_strategy(BlackjackConfig()), Path(tmp) / "chart.svg", "Blackjack")
...     out.read_text()[:5]
'<?xml'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from pelisali.analysis.blackjack_ca import ACTIONS, UP_CARDS, Strategy, Table, up_label

COLOURS = {
    "H": "#f7f7f7",   # hit: white
    "S": "#e4574c",   # stand: red
    "D": "#3f8fd2",   # double, else hit: blue
    "Ds": "#9cc8ef",  # double, else stand: light blue
    "P": "#52b36b",   # split: green
}
TEXT = {"H": "#222222", "S": "#ffffff", "D": "#ffffff", "Ds": "#13324f", "P": "#ffffff"}


def _pair_label(value: int) -> str:
    name = {1: "A", 10: "T"}.get(value, str(value))
    return f"{name},{name}"


def _soft_label(total: int) -> str:
    if total == 12:
        return "12 (A,A)"
    return f"{total} (A,{total - 11})" if total < 21 else "21"


def _grid(ax: Axes, table: Table, title: str, label: Callable[[int], str],
          order: list[int]) -> None:
    ax.set_xlim(0, len(UP_CARDS))
    ax.set_ylim(len(order), 0)
    for r, key in enumerate(order):
        for c, up in enumerate(UP_CARDS):
            code = table[key][up]
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=COLOURS[code], edgecolor="#555555",
                                   linewidth=0.6))
            ax.text(c + 0.5, r + 0.5, code, ha="center", va="center", fontsize=9,
                    fontweight="bold", color=TEXT[code])
    ax.set_xticks([c + 0.5 for c in range(len(UP_CARDS))],
                  [up_label(u) for u in UP_CARDS])
    ax.set_yticks([r + 0.5 for r in range(len(order))], [label(k) for k in order])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("dealer up card", fontsize=9)
    ax.tick_params(length=0, labelsize=9)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(title, fontsize=11, fontweight="bold", pad=28)


def render_chart(strategy: Strategy, path: Path, title: str) -> Path:
    """Draw ``strategy`` as a chart at ``path`` (format from the suffix) and return the path."""
    path = Path(path)
    figure = Figure(figsize=(15, 8.6))
    FigureCanvasAgg(figure)
    grid = figure.add_gridspec(2, 3, height_ratios=[1, 1], hspace=0.5, wspace=0.25,
                               left=0.05, right=0.98, top=0.86, bottom=0.12)
    hard = figure.add_subplot(grid[:, 0])
    soft = figure.add_subplot(grid[0, 1])
    pairs = figure.add_subplot(grid[:, 2])
    notes = figure.add_subplot(grid[1, 1])
    _grid(hard, strategy.hard, "Hard totals", str, sorted(strategy.hard))
    _grid(soft, strategy.soft, "Soft totals", _soft_label, sorted(strategy.soft))
    pair_order = sorted(strategy.pairs, key=lambda v: -11 if v == 1 else -v)  # A,A T,T ... 2,2
    _grid(pairs, strategy.pairs, "Pairs", _pair_label, pair_order)
    notes.axis("off")
    rules = strategy.settings
    lines = [
        f"{rules.get('decks', '?')} decks; dealer stands on all 17s",
        f"blackjack pays {rules.get('blackjack_pays', '?')}",
        "double after split" if rules.get("double_after_split") else "no double after split",
        "split aces: one card each" if rules.get("split_aces_one_card")
        else "split aces may be hit",
        "one split, no resplit; hole card checked under an ace only",
        "dealer blackjack under a ten takes "
        + ("all stakes" if rules.get("dealer_blackjack_under_ten") == "takes_all"
           else "the original bet only"),
        f"insurance: never (EV {100 * strategy.insurance_ev:+.2f} % per unit)",
    ]
    notes.text(0.0, 1.0, "\n".join(lines), va="top", ha="left", fontsize=9.5, linespacing=1.6,
               transform=notes.transAxes)
    figure.legend(handles=[Patch(facecolor=COLOURS[k], edgecolor="#555555",
                                 label=f"{k}: {ACTIONS[k]}") for k in ACTIONS],
                  loc="lower center", ncol=len(ACTIONS), frameon=False, fontsize=10)
    figure.suptitle(title, fontsize=15, fontweight="bold")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format=path.suffix.lstrip(".").lower() or "png", dpi=130)
    return path
