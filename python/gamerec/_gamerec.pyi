"""Type stubs of the native extension (see `gamerec/__init__.py`)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

Source = Union[str, "PathLike[str]", bytes]

class Diagnostic:
    """One diagnostic: what is wrong, where, and what would be right."""

    severity: str
    code: str
    message: str
    ply: int
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    length: Optional[int]
    label: Optional[str]
    help: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...

class Report:
    """What a replay found out about one game."""

    file: str
    number: int
    valid: bool
    game: Optional[str]
    variant: Optional[str]
    plies: int
    over: bool
    seats: List[str]
    score_list: List[int]
    winners: List[str]
    errors: List[Diagnostic]
    warnings: List[Diagnostic]
    tag_list: List[Tuple[str, str]]
    moves: List[str]
    comment: Optional[str]
    @property
    def scores(self) -> Dict[str, int]: ...
    @property
    def tags(self) -> Dict[str, str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Game:
    """One game as read, not yet judged."""

    file: str
    number: int
    @property
    def text(self) -> str: ...
    @property
    def tags(self) -> Dict[str, str]: ...
    def replay(self, game: Optional[str] = None) -> Report: ...

class Reader(Iterator[Any]):
    """The games (or reports) of a file, a directory's files or bytes."""

    def __iter__(self) -> "Reader": ...
    def __next__(self) -> Any: ...

class BatchReader(Iterator[Any]):
    def __iter__(self) -> "BatchReader": ...
    def __next__(self) -> Any: ...

class Position:
    """A position of any game, played in notation."""

    def __init__(self, game: str, variant: Optional[str] = None, **tags: Any) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def seats(self) -> List[str]: ...
    @property
    def turn(self) -> Optional[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def plies(self) -> int: ...
    @property
    def scores(self) -> Dict[str, int]: ...
    @property
    def winners(self) -> List[str]: ...
    def legal_moves(self) -> List[str]: ...
    def play(self, notation: str) -> None: ...
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def svg(self) -> str: ...
    def text(self, color: bool = False) -> str: ...

def read(source: Source, format: Optional[str] = None, game: Optional[str] = None) -> Iterator[Game]:
    """The games of a file, of every file a directory scan finds (files with
    an extension gamerec reads, in path order, hidden ones skipped), or of
    bytes. A file that cannot be read raises `ReadError` naming it; reading
    on goes to the next file."""
    ...

def validate(source: Source, format: Optional[str] = None, game: Optional[str] = None) -> Iterator[Report]:
    """The reports of the games `read` yields."""
    ...

def games() -> List[Dict[str, Any]]: ...
def validate_arrow(texts: Any, game: Optional[str] = None, format: Optional[str] = None) -> Any: ...
def read_arrow(
    path: Any, batch_size: int = 16384, format: Optional[str] = None, game: Optional[str] = None
) -> BatchReader: ...
