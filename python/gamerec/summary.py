"""The summary of a run, as `gamerec validate` prints it on its last line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable


@dataclass
class Summary:
    """Counts of games by verdict and of warnings by code; `add` a report
    (or a row of `validate_arrow`), `merge` the summaries of parts of a
    collection, `line()` is the CLI's summary line."""

    games: int = 0
    valid: int = 0
    invalid: int = 0
    unfinished: int = 0
    warning_codes: Dict[str, int] = field(default_factory=dict)

    def add(self, report: Any) -> None:
        """Counts one `Report`, or a row of `validate_arrow` as a dict
        (`valid`, `over`, `warning_codes`)."""
        get = report.get if isinstance(report, dict) else lambda k: getattr(report, k)
        self.games += 1
        if get("valid"):
            self.valid += 1
            if not get("over"):
                self.unfinished += 1
        else:
            self.invalid += 1
        if isinstance(report, dict) and "warning_codes" in report:
            codes = report["warning_codes"] or []
        else:
            codes = [w["code"] if isinstance(w, dict) else w.code for w in get("warnings") or []]
        for code in codes:
            self.warning_codes[code] = self.warning_codes.get(code, 0) + 1

    def merge(self, other: "Summary") -> "Summary":
        codes = Counter(self.warning_codes)
        codes.update(other.warning_codes)
        return Summary(
            self.games + other.games,
            self.valid + other.valid,
            self.invalid + other.invalid,
            self.unfinished + other.unfinished,
            dict(codes),
        )

    @staticmethod
    def of(parts: Iterable["Summary"]) -> "Summary":
        total = Summary()
        for p in parts:
            total = total.merge(p)
        return total

    @property
    def warnings(self) -> int:
        return sum(self.warning_codes.values())

    def line(self) -> str:
        """`N games, V valid, I invalid, U unfinished` and, with warnings,
        `; W warnings: n code, ...` (most frequent first), as the CLI."""
        games = "1 game" if self.games == 1 else f"{self.games} games"
        line = f"{games}, {self.valid} valid, {self.invalid} invalid, {self.unfinished} unfinished"
        if self.warnings:
            codes = sorted(self.warning_codes.items(), key=lambda kv: (-kv[1], kv[0]))
            noun = "warning" if self.warnings == 1 else "warnings"
            line += f"; {self.warnings} {noun}: " + ", ".join(f"{n} {c}" for c, n in codes)
        return line
