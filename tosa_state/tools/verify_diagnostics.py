"""`--verify-diagnostics`: check `expected-*` annotations against the diagnostics, as mlir-opt.

Same rules as MLIR's `SourceMgrDiagnosticVerifierHandler` (mlir/lib/IR/Diagnostics.cpp):

- `// expected-error {{text}}` (also `-warning`, `-note`, `-remark`) expects a diagnostic of
  that severity on the same line whose message contains `text`; `expected-error-re` reads
  `{{...}}` parts inside the text as regular expressions;
- `@+N` / `@-N` move the line, `@above` / `@below` point at the nearest line above / below
  that is not itself an annotation, `@unknown` expects a diagnostic without a location;
- each diagnostic that matches no annotation is reported as `unexpected error: ...` (or a
  near miss: the right text with another severity), each annotation never matched as
  `expected error "text" was not produced`; any of them makes the tool fail.

A diagnostic's notes are diagnostics of their own; a note printed without a location has
its error's location (MLIR's `attachNote()` without a location).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *"
    r"\{\{(.*)\}\}$"
)
_DIAGNOSTIC = re.compile(
    r"^(?:(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): )?(?P<sev>error|warning|note|remark): "
    r"(?P<msg>.*)$"
)


@dataclass
class Diagnostic:
    """One diagnostic: severity, message, and location (`file` None when unknown)."""

    severity: str
    message: str
    file: str | None = None
    line: int = 0
    column: int = 0

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: " if self.file is not None else ""


def parse_diagnostics(text: str) -> list[Diagnostic]:
    """The diagnostics in a printed error message, one per `[loc: ]severity: ...` line.

    Lines of another form continue the previous diagnostic's message; a note without a
    location takes the location of the error (warning, remark) it follows.
    """
    diagnostics: list[Diagnostic] = []
    parent: Diagnostic | None = None
    for line in text.split("\n"):
        match = _DIAGNOSTIC.match(line)
        if match is None:
            if diagnostics:
                diagnostics[-1].message += "\n" + line
            else:
                diagnostics.append(Diagnostic("error", line))
            continue
        diagnostic = Diagnostic(match["sev"], match["msg"])
        if match["file"] is not None:
            diagnostic.file = match["file"]
            diagnostic.line, diagnostic.column = int(match["line"]), int(match["col"])
        elif match["sev"] == "note" and parent is not None:
            diagnostic.file, diagnostic.line, diagnostic.column = (
                parent.file, parent.line, parent.column,
            )
        if diagnostic.severity != "note":
            parent = diagnostic
        diagnostics.append(diagnostic)
    return diagnostics


@dataclass
class _Expected:
    severity: str
    line: int  # the 1-based file line it expects a diagnostic on
    at: str  # where the annotation is written: `file:line:col`
    text: str
    pattern: re.Pattern[str] | None = None
    unknown: bool = False
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def _regex(text: str) -> re.Pattern[str]:
    """`expected-*-re` text: literal outside `{{...}}`, a regular expression inside."""
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        try:
            re.compile(rest[:end])
        except re.error as error:
            raise ValueError(f"invalid regex: {error}") from None
        parts.append(f"({rest[:end]})")
        rest = rest[end + 2 :]
    return re.compile("".join(parts))


@dataclass
class DiagnosticVerifier:
    """The expected diagnostics of one input buffer (one chunk with `--split-input-file`).

    `first_line` is the file line number of the buffer's first line, `name` the file name
    diagnostics use for it.
    """

    text: str
    name: str
    first_line: int = 1
    only_expected: bool = False
    """mlir-opt's `--verify-diagnostics=only-expected`: ignore unexpected diagnostics."""
    problems: list[str] = field(default_factory=list)
    _expected: list[_Expected] = field(default_factory=list)

    def __post_init__(self) -> None:
        last_plain = 0  # 0-based index of the last line without an annotation
        below: list[_Expected] = []
        lines = self.text.split("\n")
        for index, line in enumerate(lines):
            match = _EXPECTED.search(line.rstrip())
            if match is None:
                for record in below:
                    record.line = self.first_line + index
                below.clear()
                last_plain = index
                continue
            line_number = self.first_line + index
            record = _Expected(
                match[1], line_number, f"{self.name}:{line_number}:{match.start() + 1}", match[5]
            )
            if match[2]:
                try:
                    record.pattern = _regex(record.text)
                except ValueError as error:
                    self.problems.append(f"{record.at}: error: {error}")
                    continue
            designator = match[4]
            if designator is None:
                pass
            elif designator[0] in "+-":
                record.line += int(designator)
            elif designator == "unknown":
                record.unknown = True
            elif designator == "above":
                record.line = self.first_line + last_plain
            else:  # below; if nothing follows, the last line
                record.line = self.first_line + len(lines) - 1
                below.append(record)
            self._expected.append(record)

    def process(self, diagnostic: Diagnostic) -> None:
        """Match one diagnostic against the annotations; record it if nothing expects it."""
        near_miss: _Expected | None = None
        for record in self._expected:
            if record.unknown != (diagnostic.file is None):
                continue
            if diagnostic.file is not None and (
                diagnostic.file != self.name or diagnostic.line != record.line
            ):
                continue
            if record.matches(diagnostic.message):
                if record.severity == diagnostic.severity:
                    record.matched = True
                    return
                near_miss = record
        if self.only_expected:
            return
        if near_miss is not None:
            self.problems.append(
                f"{near_miss.at}: error: "
                f"'{diagnostic.severity}' diagnostic emitted when expecting a "
                f"'{near_miss.severity}'"
            )
        else:
            self.problems.append(
                f"{diagnostic.where()}error: unexpected {diagnostic.severity}: "
                f"{diagnostic.message}"
            )

    def process_text(self, text: str) -> None:
        """Match every diagnostic of a printed error message."""
        for diagnostic in parse_diagnostics(text):
            self.process(diagnostic)

    def finish(self) -> list[str]:
        """Every problem found: unexpected diagnostics, then annotations never matched."""
        for record in self._expected:
            if not record.matched:
                self.problems.append(
                    f'{record.at}: error: expected {record.severity} "{record.text}" '
                    "was not produced"
                )
                record.matched = True
        return self.problems
