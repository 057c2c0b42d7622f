"""A game session: the rules engine, the store, the camera's end-of-turn reading and the buttons.

Order of every change (DESIGN.md, data flow): the engine checks the action (``push`` is atomic),
the store appends it in one committed transaction, and only then does anything show it. If the
store cannot write, the game is rebuilt from what the store holds, so screen and disk never
disagree.

Random outcomes: the engine marks chance nodes. The app draws them with the game's seeded
generator (``sample_chance``) and records them like any action, except the outcomes that the
players reveal on the real table (a face-up card the camera reads): those wait for the scan or a
hand entry, with "let the app draw" always offered. Which kinds are table-revealed is per game
(``guides.Guide.observed_chance``); Monster Highway has none: the app rolls every die and draws
every Monster Card. In demo mode the app draws everything.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.reconcile import Reading, reconcile
from companion.store import Seat, Store, StoredGame, StoreError
from rules import Action, IllegalAction, Record, RulesError, UndoRefused
from rules.game import Game
from rules.registry import GAMES, game_class

from . import guides
from .errors import ScanError, SessionError, VisionUnavailable
from .stillness import wait_still

log = logging.getLogger("companion.session")

#: Action kinds that close a player's turn when the picture showed their play.
END_KINDS = ("end_turn", "end", "done", "finish_turn")


@dataclass
class Outcome:
    """What one session call did, for the screen: ``ok`` with a one-line ``message``; the actions
    ``recorded`` (chance outcomes included) with a line each in ``announcements``; on failure the
    engine's ``rule`` and ``spots`` (table mm) to highlight; ``choices`` when the picture fits
    several plays."""

    ok: bool
    message: str
    recorded: list[Action] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    rule: str = ""
    spots: list[tuple[float, float]] = field(default_factory=list)
    choices: list[Action] = field(default_factory=list)


@dataclass
class Capture:
    """An end-of-turn picture and what the recogniser read in it (made off the UI thread)."""

    image: Any
    observation: Any = None
    error: ScanError | None = None
    jpeg: bytes | None = None
    #: The picture with what the recogniser saw drawn on it (when the overlay is installed), at
    #: display width: :func:`picture` draws it, after the result is shown, and then lets go of
    #: the full ``image`` (9 MB at 2304x1296) so a kept capture costs about 1.5 MB.
    annotated: Any = None
    #: ``annotated``'s pixels per pixel of the camera's frame.
    scale: float = 1.0

    @property
    def has_picture(self) -> bool:
        return self.image is not None or self.annotated is not None


Scanner = Callable[[Any, str], Any]


def encode_jpeg(image: Any, width: int = 640, quality: int = 70) -> bytes:
    """A small JPEG of a BGR frame, kept with the turn it shows."""
    import cv2

    h, w = image.shape[:2]
    if w > width:
        # INTER_LINEAR after a 2x pyramid step: as sharp as INTER_AREA at this size, a third of its time.
        while image.shape[1] >= 2 * width:
            image = cv2.pyrDown(image)
        h, w = image.shape[:2]
        image = cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_LINEAR)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ScanError("the table picture could not be compressed")
    return bytes(data.tobytes())


def vision_scanner(*, packs: dict[str, Any] | None = None, table: Any = None) -> Scanner:
    """``vision.scan`` with this kiosk's packs (game -> pack folder; the proxy pack otherwise) and
    table (a vision TableSpec, or a function of the game's name giving one: the demo's tables), or
    :class:`VisionUnavailable`."""
    loaded: dict[str, Any] = {}

    def scan(image: Any, game_name: str) -> Any:
        try:
            import vision
        except ImportError as exc:
            raise VisionUnavailable(f"the recogniser cannot be loaded ({exc}): enter the action by hand") from None
        func = getattr(vision, "scan", None)
        if func is None:
            raise VisionUnavailable("the recogniser is not part of this installation yet: enter the action by hand")
        # The pack is loaded once per game and handed to every scan: left to vision.scan, the
        # proxy pack was found and parsed again on every end turn (about 60 ms of 300).
        if game_name not in loaded:
            from vision.pack import load_pack, proxy_pack

            try:
                if packs and game_name in packs:
                    loaded[game_name] = load_pack(packs[game_name])
                else:
                    loaded[game_name] = proxy_pack(game_name)
            except (ValueError, OSError) as exc:
                raise ScanError(f"the card pack for this game cannot be read: {exc}") from None
        pack = loaded[game_name]
        kwargs: dict[str, Any] = {"pack": pack}
        spec = table(game_name) if callable(table) else table
        if spec is not None:
            kwargs["table"] = spec
        try:
            return func(image, game_name, **kwargs)
        except ValueError as exc:  # vision's errors are VisionError(ValueError)
            raise ScanError(f"the picture could not be read: {exc}",
                            spot=None) from None

    return scan


class Session:
    """One game at the table. Not thread-safe: call it from one thread (the UI's); only
    :meth:`capture` may run on a worker thread, and it does not touch the game."""

    def __init__(self, store: Store, stored: StoredGame, game: Game[Any], *, app_draws_all: bool = False,
                 scanner: Scanner | None = None, guide: guides.Guide | None = None) -> None:
        self.store = store
        self.id = stored.id
        self.stored = stored
        self.game = game
        self.seats = list(stored.seats)
        self.guide = guide or guides.guide(game.name, getattr(game, "title", game.name))
        self.app_draws_all = app_draws_all
        self.scanner: Scanner = scanner or vision_scanner()
        #: Items of the last picture the app accepted, and that picture.
        self.accepted_items: list[Any] = []
        self.accepted_jpeg: bytes | None = store.last_scan(stored.id)
        self.accepted_observation: Any = None
        self.accepted_capture: Capture | None = None
        #: Ids named by actions recorded since the accepted picture (expected to change).
        self._explained: set[str] = set()
        #: Random outcomes recorded since the accepted picture, with their place in the game's
        #: actions: cards they laid on the table are expected in the next picture.
        self._chance_since: list[tuple[int, Action]] = []
        #: Player actions recorded since the accepted picture (entered by hand, or read from the
        #: picture being accepted): a card one of them laid is expected in the next picture.
        self._played_since: list[tuple[int, Action]] = []
        self.log: list[str] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ starting
    @classmethod
    def new(cls, store: Store, game_name: str, seats: Sequence[Seat | str], *,
            options: dict[str, Any] | None = None, seed: int | None = None, first_player: int = 0,
            app_draws_all: bool = False, scanner: Scanner | None = None,
            engine: type[Game[Any]] | None = None, guide: guides.Guide | None = None) -> Session:
        """Start a game. ``seats`` go clockwise around the table; ``first_player`` (an index into
        them) becomes seat 0, keeping the clockwise order, because engines start with seat 0."""
        cls_ = engine or _engine(game_name)
        seat_list = [s if isinstance(s, Seat) else Seat(s) for s in seats]
        # A seat with no table edge sits where the vision layer seats players by default.
        seat_list = [s if s.edge else Seat(s.name, s.colour or guides.COLOURS[i % len(guides.COLOURS)],
                                           guides.EDGES[i % len(guides.EDGES)])
                     for i, s in enumerate(seat_list)]
        if not 0 <= first_player < max(1, len(seat_list)):
            raise SessionError(f"the first player must be one of the {len(seat_list)} players")
        seat_list = seat_list[first_player:] + seat_list[:first_player]
        if seed is None:
            seed = secrets.randbelow(2**31)
        game = cls_([s.name for s in seat_list], seed=seed, options=options or {})  # OptionError if bad
        game_id = store.create_game(game_name, seat_list, options=dict(game.options), seed=seed)
        session = cls(store, store.load(game_id), game, app_draws_all=app_draws_all, scanner=scanner,
                      guide=guide)
        session._settle()
        return session

    @classmethod
    def resume(cls, store: Store, game_id: int, *, app_draws_all: bool = False,
               scanner: Scanner | None = None, engine: type[Game[Any]] | None = None,
               guide: guides.Guide | None = None) -> Session:
        """Rebuild a stored game by replaying its confirmed actions, exactly where it stopped."""
        stored = store.load(game_id)
        if stored.status != "playing":
            raise SessionError(f"game {game_id} is {stored.status}, it cannot be resumed")
        cls_ = engine or _engine(stored.game)
        game = _replay(stored, cls_)
        session = cls(store, stored, game, app_draws_all=app_draws_all, scanner=scanner, guide=guide)
        session._settle()
        return session

    # ------------------------------------------------------------------ state for the screen
    @property
    def title(self) -> str:
        return self.guide.title

    @property
    def over(self) -> bool:
        return bool(self.game.is_game_over())

    def to_move(self) -> int | None:
        return None if self.over else self.game.current_player()

    def waiting_for_table(self) -> bool:
        """A random outcome the players reveal on the table is due (scan it, enter it or let the
        app draw)."""
        return self.game.is_chance_node() and not self._app_draws_now()

    def prompt(self) -> str:
        return guides.next_thing(self.game, self.guide, waiting_for_table=self.waiting_for_table())

    def status(self) -> list[str]:
        """The game's bookkeeping in a few lines (deck left, dice, closed road letter...)."""
        from .status import status_lines

        return status_lines(self.game)

    def highlights(self) -> list[tuple[float, float]]:
        """Spots on the table (mm) the players should look at now: Roundabout's legal spots for
        the card in hand, the Monster's space. Needs an accepted picture to place grid cells."""
        from .status import highlights

        return highlights(self.game, self.accepted_observation)

    def board_picture(self) -> bytes | None:
        """Monster Highway: the board as the engine knows it (PNG), the Monster ringed."""
        if self.game.name != "monsterhighway":
            return None
        import cv2

        from .board import monster_board

        try:
            image = monster_board(self.game, seat_colours=[s.colour for s in self.seats])
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            return None  # an engine whose insides changed: no board picture, the game goes on
        ok, data = cv2.imencode(".png", image)
        return bytes(data.tobytes()) if ok else None

    def reference(self) -> list[tuple[str, str]]:
        return guides.reference_for(self.game, self.guide)

    def setup_steps(self) -> list[str]:
        return self.guide.setup(list(self.game.players), dict(self.game.options), self.first_player())

    def storage_notice(self) -> str:
        return storage_notice(self.store)

    def retry_saving(self) -> bool:
        """Try again to write what the disk refused; True when nothing is left waiting."""
        flush = getattr(self.store, "flush", None)
        if flush is None or not getattr(self.store, "pending", None):
            return True
        with self._lock:
            try:
                return bool(flush())
            except (StoreError, OSError):
                return False

    def first_player(self) -> int:
        """The seat the engine has moving first: the game from its start, with the opening deal
        drawn on a copy (options such as Highwayman's dealer decide it, not seat order)."""
        copy = type(self.game)(list(self.game.players), seed=self.game.seed, options=dict(self.game.options))
        for _ in range(1000):
            if copy.is_game_over() or not copy.is_chance_node():
                break
            copy.push(copy.sample_chance())
        first = None if copy.is_game_over() else copy.current_player()
        return 0 if first is None else int(first)

    def scoreboard(self) -> list[dict[str, Any]]:
        out = []
        turn = self.to_move()
        for p, seat in enumerate(self.seats):
            b = self.game.breakdown(p)
            out.append({"player": p, "name": seat.name, "colour": seat.colour, "total": b.total,
                        "shown": guides.shown_score(self.guide, b),
                        "lines": [ln.to_json() for ln in b.lines], "to_move": p == turn})
        return out

    def standings(self) -> list[dict[str, Any]]:
        out = []
        for s in self.game.standings():
            b = self.game.breakdown(s.player)
            out.append({**s.to_json(), "colour": self.seats[s.player].colour,
                        "shown": guides.shown_score(self.guide, b),
                        "breakdown": [ln.to_json() for ln in b.lines]})
        return out

    def hand_entry(self) -> list[tuple[str, Action]]:
        """Every action that can be entered by hand now, described for a button: the mover's own
        first, then what each other seat may play out of turn (a Monster Buster, a Highwayman),
        seat by seat and labelled so, so nobody plays another seat's card by mistake."""
        if self.over:
            return []
        if self.game.is_chance_node():
            return [(self.describe(a), a) for a in self.game.legal_actions()]
        mover = self.game.current_player()
        n = len(self.seats)
        order = [((mover or 0) + k) % n for k in range(n)]  # the mover, then round the table
        out: list[tuple[str, Action]] = []
        for p in order:
            for a in self.game.legal_actions_for(p):
                label = self.describe(a)
                out.append((label if p == mover else f"Out of turn, {label}", a))
        return out

    def entry_group(self, action: Action) -> str:
        """The heading a hand-entry action is filed under: its kind for the mover (and chance),
        the seat's name for a play out of turn."""
        mover = None if self.over else self.game.current_player()
        if action.player is None or action.player == mover:
            return action.kind.replace("_", " ")
        return f"{self.seats[action.player].name}, out of turn"

    def describe(self, action: Action) -> str:
        try:
            return str(self.game.describe(action))
        except (RulesError, KeyError, TypeError, ValueError, IndexError):
            # An engine's wording may expect a well-formed action; a misread one still gets a name.
            return Game.describe(self.game, action)

    # ------------------------------------------------------------------ changing the game
    def apply(self, action: Action, *, jpeg: bytes | None = None) -> Outcome:
        """Check, record, then show. Raises the engine's :class:`IllegalAction` (state untouched)."""
        with self._lock:
            self._push_and_store(action, jpeg=jpeg)
            recorded = [action]
            announcements = [self.describe(action)]
            for a in self._settle():
                recorded.append(a)
                announcements.append(self.describe(a))
        self.log.extend(announcements)
        return Outcome(True, announcements[0] + _unsaved(self.store), recorded, announcements)

    def play(self, action: Action, *, jpeg: bytes | None = None) -> Outcome:
        """:meth:`apply` for the touch screen: a refused action becomes a failed Outcome."""
        try:
            return self.apply(action, jpeg=jpeg)
        except IllegalAction as exc:
            return Outcome(False, str(exc), rule=exc.rule)
        except RulesError as exc:
            return Outcome(False, str(exc))

    def _push_and_store(self, action: Action, *, jpeg: bytes | None = None) -> None:
        chance = self.game.is_chance_node()
        self.game.push(action)  # raises with the state untouched
        try:
            self.store.append_action(self.id, action, jpeg=jpeg, summary=self._summary())
        except (StoreError, OSError) as exc:
            # The disk refused: rebuild from what the disk holds so the screen never shows an
            # action that a power cut would lose.
            self.game = _replay(self.store.load(self.id), type(self.game))
            raise SessionError(f"the action was not saved, so it was not played: {exc}") from None
        for _, value in action.params:
            self._explained.update(_strings(value))
        if chance:
            self._chance_since.append((len(self.game.actions) - 1, action))
        else:
            self._played_since.append((len(self.game.actions) - 1, action))

    def _revealed(self) -> list[str]:
        """Cards the app's random draws since the accepted picture laid on the table."""
        from companion.reconcile import revealed_on_table

        return revealed_on_table(self.game, [a for _, a in self._chance_since])

    def _summary(self) -> dict[str, Any]:
        return {"scores": [self.game.breakdown(p).total for p in range(len(self.seats))],
                "to_move": None if self.game.is_game_over() else self.game.current_player(),
                "actions": len(self.game.actions)}

    def _app_draws_now(self) -> bool:
        if self.app_draws_all:
            return True
        if not self.guide.observed_chance:
            return True
        outcomes = self.game.legal_actions()
        return not any(a.kind in self.guide.observed_chance for a in outcomes)

    def _settle(self) -> list[Action]:
        """Draw the random outcomes the app owns until a player must act (or the table must)."""
        drawn: list[Action] = []
        while self.game.is_chance_node() and self._app_draws_now():
            outcome = self.game.sample_chance()
            self._push_and_store(outcome)
            drawn.append(outcome)
        return drawn

    def draw_for_table(self) -> Outcome:
        """The players let the app draw a table-revealed outcome (no scan, no hand entry)."""
        if not self.game.is_chance_node():
            return Outcome(False, "there is nothing random to draw now")
        with self._lock:
            outcome = self.game.sample_chance()
            self._push_and_store(outcome)
            recorded = [outcome, *self._settle()]
        announcements = [self.describe(a) for a in recorded]
        self.log.extend(announcements)
        return Outcome(True, announcements[0], recorded, announcements)

    def undo(self) -> Outcome:
        """Take back the last player action; refused across random reveals (the engine's reason)."""
        with self._lock:
            if not self.game.can_undo():
                try:
                    self.game.pop()  # only to get the engine's exact reason; it refuses
                except UndoRefused as exc:
                    return Outcome(False, str(exc), rule="undo")
                raise AssertionError("can_undo() and pop() disagree")  # pragma: no cover
            last = self.game.actions[-1]
            self.store.append_undo(self.id)
            self.game.pop()
            self._chance_since = [(i, a) for i, a in self._chance_since if i < len(self.game.actions)]
            self._played_since = [(i, a) for i, a in self._played_since if i < len(self.game.actions)]
        text = f"Undone: {self.describe(last)}"
        self.log.append(text)
        return Outcome(True, text)

    def can_undo(self) -> bool:
        return bool(self.game.can_undo())

    def series(self) -> list[dict[str, Any]]:
        """Highwayman's series (rule 5: lowest total over several games wins): this game plus
        every finished Highwayman game these same players played, in seat order."""
        if self.game.name != "highwayman":
            return []
        try:
            from rules.highwayman import Series
        except ImportError:
            return []
        series = Series(tuple(self.game.players))
        for g in self.store.finished_games():
            if g.game == "highwayman" and g.id != self.id and g.record and list(g.players) == list(self.game.players):
                try:
                    series.add_record(Record.from_json(g.record))
                except RulesError:
                    continue  # a record this engine version cannot replay is left out, not fatal
        if self.over:
            series.add(self.game)
        games = len(series.games)
        return [{**st.to_json(), "games": games} for st in series.standings()]

    def finish(self) -> dict[str, Any]:
        """The players confirmed the final standings: close the game in the store."""
        if not self.over:
            raise SessionError("the game is not over yet")
        result = {"standings": self.standings(), "lowest_wins": bool(self.game.lowest_wins),
                  "title": self.title}
        self.store.finish(self.id, result, self.game.record().to_json())
        return result

    def abandon(self) -> None:
        self.store.abandon(self.id)

    # ------------------------------------------------------------------ the end-of-turn picture
    def capture(self, source: Any, **still: Any) -> Capture:
        """Wait for a still table, read the picture. Safe on a worker thread: it does not touch
        the game, only the camera and the recogniser."""
        try:
            frame = wait_still(source, **still)
        except ScanError as exc:
            return Capture(None, error=exc)
        except Exception as exc:  # a camera driver's own fault: the turn stays open, say so
            log.exception("the camera failed while waiting for a still table")
            return Capture(None, error=ScanError.unexpected("the camera failed", exc))
        image = frame.image
        # The turn's JPEG (stored with its action, in the same transaction) is compressed on a
        # second thread while the recogniser reads the picture: OpenCV lets go of the GIL for
        # both, so it is ready when the reading is instead of adding to the wait. The overlay is
        # not drawn here: it is decoration, drawn by picture() once the result is on screen.
        encoder = _Encoding(image)
        try:
            observation = self.scanner(image, self.game.name)
        except ScanError as exc:
            return Capture(image, error=exc, jpeg=encoder.result(or_none=True))
        except Exception as exc:
            # A fault in the recogniser on this one picture (a bug, memory) must not kill the
            # worker: the app would wait for its answer for ever. Nothing was read, the game is
            # untouched, and the players can scan again or enter the play by hand.
            log.exception("the recogniser failed on this picture")
            return Capture(image, error=ScanError.unexpected("the picture could not be read: the recogniser failed", exc),
                           jpeg=encoder.result(or_none=True))
        try:
            jpeg = encoder.result()
        except ScanError as exc:
            return Capture(image, error=exc)
        return Capture(image, observation, jpeg=jpeg)

    def _reconcile(self, observation: Any) -> Reading:
        """What ``observation`` shows was played since the accepted picture, with the seats' table
        edges and colours and what the app itself laid or had drawn since."""
        return reconcile(self.game, self.accepted_items, observation, self._explained,
                         edges=[s.edge for s in self.seats], colours=[s.colour for s in self.seats],
                         revealed=self._revealed(), laid=[a for _, a in self._played_since])

    def accept(self, capture: Capture) -> Outcome:
        """Turn a captured picture into recorded actions, or say exactly what is wrong."""
        if capture.error is not None:
            return Outcome(False, str(capture.error), spots=[capture.error.spot] if capture.error.spot else [])
        if self.over:
            return Outcome(False, "the game is over: no more plays are read")
        obs = capture.observation
        reading = self._reconcile(obs)
        if reading.problems:
            return Outcome(False, "The table does not match: " + "; ".join(reading.problems) + ".",
                           spots=reading.spots, rule="table")
        revealed = self._reveals(reading)
        done = list(self._revealed_actions)
        if revealed:
            # Cards turned up on the table are recorded first; the rest of the picture is then
            # read as the player's play, against the table with those cards in it.
            known = list(self.accepted_items)
            if not self.guide.revealed_is_played:
                known += [s for s in reading.diff.added if s in revealed]
            before_items, self.accepted_items = self.accepted_items, known
            try:
                rest = self.accept(capture) if not self.over else None
            finally:
                if self.accepted_items is known:
                    self.accepted_items = before_items
            announcements = [self.describe(a) for a in done]
            if rest is None or (not rest.ok and not rest.choices and "Nothing new" in rest.message):
                self._accept_picture(capture)
                return Outcome(True, announcements[0], done, announcements)
            rest.recorded = [*done, *rest.recorded]
            rest.announcements = announcements + rest.announcements
            return rest
        if reading.problems:
            return Outcome(False, "The table does not match: " + "; ".join(reading.problems) + ".",
                           spots=reading.spots, rule="table")
        unsure_ids = {str(getattr(i, "id", "")) for i in getattr(obs, "unsure", [])}
        unsure_added = [s for s in reading.diff.added if s.id in unsure_ids]
        legal = set(self.game.legal_actions())
        fitting = [a for a in reading.candidates if a in legal]
        if unsure_added and fitting:
            s = unsure_added[0]
            return Outcome(False, f"Not sure the card at {s.center[0]:.0f}, {s.center[1]:.0f} mm is {s.id}: "
                           "confirm the play or enter it by hand.", spots=[s.center], choices=fitting)
        if not reading.candidates:
            if reading.diff.added:
                s = reading.diff.added[0]
                return Outcome(False, f"{s.id} appeared but no legal play puts it there now; "
                               "check the card or enter the action by hand.", spots=[s.center])
            self._accept_picture(capture)
            # what the camera itself noted may say why (a patterned cloth hides the cars)
            notes = "".join(f" The camera notes: {w}." for w in getattr(obs, "warnings", [])[:1])
            return Outcome(False, "Nothing new on the table: play, or enter the action by hand." + notes)
        if not fitting:
            # Let the engine say exactly why the most likely reading is illegal.
            first = reading.candidates[0]
            spot = [s.center for s in reading.diff.added[:1]]
            try:
                probe = self._copy_game()
                probe.push(first)
            except IllegalAction as exc:
                return Outcome(False, f"{self.describe(first)} is not allowed: {exc}", rule=exc.rule, spots=spot)
            except RulesError as exc:
                return Outcome(False, f"{self.describe(first)} is not allowed: {exc}", spots=spot)
            return Outcome(False, f"{self.describe(first)} is not possible now.", spots=spot)
        best = [a for a in fitting if _hits(a, reading) == _hits(fitting[0], reading)]
        if len(best) > 1:
            return Outcome(False, "The picture fits several plays: choose the one that was made.",
                           choices=best, spots=[s.center for s in reading.diff.added])
        outcome = self.apply(best[0], jpeg=capture.jpeg)
        self._more_plays(outcome, capture, best[0].player)
        self._accept_picture(capture)
        return self._close_turn(outcome, best[0].player)

    def _more_plays(self, outcome: Outcome, capture: Capture, player: int | None) -> None:
        """One picture may show several plays of the same turn (two cards built, two tiles laid):
        read it again against the updated game while it names exactly one more legal play."""
        for _ in range(12):
            if self.over or player is None or self.game.current_player() != player:
                return
            reading = self._reconcile(capture.observation)
            legal = set(self.game.legal_actions())
            fitting = [a for a in reading.candidates if a in legal and a not in outcome.recorded]
            if not fitting:
                return
            top = [a for a in fitting if _hits(a, reading) == _hits(fitting[0], reading)]
            if len(top) != 1:
                return  # ambiguous: the players say which with the next end turn or by hand
            more = self.apply(top[0])
            outcome.recorded += more.recorded
            outcome.announcements += more.announcements

    def baseline(self, capture: Capture) -> Outcome:
        """Accept a picture as the table to compare with, without reading plays from it: the
        starting layout after setup, or the table after a fix the players made by hand."""
        glare: str | None = None  # (without the recogniser no picture names a lamp's glare ...
        arm: str | None = None  # ... or an arm, or tells one thing the scan cut into places)
        group: Callable[[list[Any]], list[Any]] | None = None
        hider: Callable[[Any], str] | None = None
        with contextlib.suppress(ImportError):
            from vision.observation import ARM as arm
            from vision.observation import GLARE as glare
            from vision.observation import hidden_by as hider
            from vision.observation import unknown_things as group
        if capture.error is not None:
            return Outcome(False, str(capture.error))
        self._accept_picture(capture)
        n = len(getattr(capture.observation, "items", []))
        unknowns = getattr(capture.observation, "unknowns", [])
        glared = sum(glare is not None and getattr(u, "reason", "") == glare for u in unknowns)
        armed = sum(arm is not None and getattr(u, "reason", "") == arm for u in unknowns)
        # things, not places: a coaster the scan cut into a dozen card-sized places is one, and the
        # places an arm hides are part of the arm
        if group is not None and hider is not None:
            unknown = sum(not hider(thing) for thing in group(list(unknowns)))
        else:
            unknown = sum(getattr(u, "reason", "") not in (glare, arm) for u in unknowns)
        extra = f"; {unknown} thing{'s' if unknown != 1 else ''} it does not know" if unknown else ""
        if glared:
            extra += "; a lamp's glare hides part of the table"
        if armed:
            extra += "; a hand hides part of the table"
        return Outcome(True, f"The camera sees {n} cards and tiles{extra}.")

    def _reveals(self, reading: Reading) -> list[Any]:
        """At a table-revealed chance node: record each outcome the picture shows (a newly seen
        card that is one of the possible outcomes), until a player is to act. Returns the seen
        items used; the recorded actions are left in ``_revealed_actions``."""
        self._revealed_actions: list[Action] = []
        used: list[Any] = []
        from companion.reconcile import shows

        while self.game.is_chance_node() and not self._app_draws_now():
            outcomes = self.game.legal_actions()
            found = next(((seen, a) for seen in reading.diff.added if seen not in used
                          for a in outcomes if shows(self.game.name, a, seen.id)), None)
            if found is None:
                break
            seen, action = found
            self.apply(action)
            self._revealed_actions.append(action)
            used.append(seen)
        return used

    def _close_turn(self, outcome: Outcome, player: int | None) -> Outcome:
        if self.over or player is None or self.game.current_player() != player:
            return outcome
        ends = [a for a in self.game.legal_actions() if a.kind in END_KINDS and a.player == player]
        if len(ends) == 1:
            more = self.apply(ends[0])
            outcome.recorded += more.recorded
            outcome.announcements += more.announcements
        return outcome

    def _accept_picture(self, capture: Capture) -> None:
        self.accepted_items = list(capture.observation.items)
        self.accepted_observation = capture.observation
        self.accepted_capture = capture
        self.accepted_jpeg = capture.jpeg
        self._explained.clear()
        self._chance_since.clear()
        self._played_since.clear()

    def _copy_game(self) -> Game[Any]:
        copy = type(self.game)(list(self.game.players), seed=self.game.seed, options=dict(self.game.options))
        for a in self.game.actions:
            copy.push(a)
        return copy

    def end_turn(self, source: Any, **still: Any) -> Outcome:
        """Synchronous end of turn (tests, the bench); the UI splits capture/accept over threads."""
        return self.accept(self.capture(source, **still))

    def wrong_seat(self, event: Any) -> Outcome | None:
        """A seat's own end-turn button pressed out of turn: refused, so a neighbour leaning on
        their button cannot end somebody else's turn."""
        seat = getattr(event, "seat", None)
        if getattr(event, "action", None) != "end_turn" or seat is None or self.over:
            return None
        turn = self.to_move()
        if turn is None or turn == seat:
            return None
        who = self.seats[seat].name if 0 <= seat < len(self.seats) else f"seat {seat}"
        return Outcome(False, f"{who} pressed end turn, but it is {self.seats[turn].name}'s turn.",
                       rule="turn order")

    def handle_control(self, event: Any, source: Any = None) -> Outcome:
        """A button (hardware ControlEvent or keyboard) mapped to the session."""
        action = getattr(event, "action", event)
        refused = self.wrong_seat(event)
        if refused is not None:
            return refused
        if action == "undo":
            return self.undo()
        if action in ("end_turn", "scan"):
            if source is None:
                return Outcome(False, "there is no camera: enter the action by hand")
            if action == "scan":
                cap = self.capture(source)
                if cap.error is not None:
                    return Outcome(False, str(cap.error))
                n = len(getattr(cap.observation, "items", []))
                return Outcome(True, f"The camera sees {n} cards and tiles.")
            return self.end_turn(source)
        raise SessionError(f"unknown control {action!r} (known: end_turn, undo, scan)")


class _Encoding:
    """:func:`encode_jpeg` of one frame on its own thread."""

    def __init__(self, image: Any) -> None:
        self._box: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(image,), name="turn jpeg", daemon=True)
        self._thread.start()

    def _run(self, image: Any) -> None:
        try:
            self._box["jpeg"] = encode_jpeg(image)
        except ScanError as exc:
            self._box["error"] = exc
        except Exception as exc:  # an OpenCV failure is reported like a failed compression
            self._box["error"] = ScanError(f"the table picture could not be compressed ({exc})")

    def result(self, *, or_none: bool = False) -> bytes | None:
        self._thread.join()
        if "error" in self._box:
            if or_none:
                return None
            raise self._box["error"]
        return self._box["jpeg"]  # type: ignore[no-any-return]


#: Width of the picture shown on the screen (and of the kept last reading).
DISPLAY_WIDTH = 960
_display_lock = threading.Lock()


def _overlay(image: Any, observation: Any) -> Any:
    try:
        from vision.overlay import draw_overlay
    except ImportError:
        return None
    try:
        return draw_overlay(image, observation)
    except Exception:  # the overlay is decoration: a drawing bug must never cost a recorded turn
        return None


def _for_display(capture: Any) -> None:
    """Draw the overlay on the full frame, shrink it to display width into ``capture.annotated``
    and let go of the full frame. Once per capture; safe from any thread."""
    with _display_lock:
        image = getattr(capture, "image", None)
        if getattr(capture, "annotated", None) is not None or image is None:
            return
        import cv2

        drawn = _overlay(image, capture.observation) if capture.observation is not None else None
        base = drawn if drawn is not None else image
        width = base.shape[1]
        if width > DISPLAY_WIDTH:
            while base.shape[1] >= 2 * DISPLAY_WIDTH:
                base = cv2.pyrDown(base)
            height = max(1, round(image.shape[0] * DISPLAY_WIDTH / width))
            base = cv2.resize(base, (DISPLAY_WIDTH, height), interpolation=cv2.INTER_AREA)
        elif drawn is None:
            base = image.copy()
        capture.scale = base.shape[1] / width
        capture.annotated = base
        capture.image = None


def picture(capture: Capture, spots: Sequence[tuple[float, float]] = ()) -> bytes | None:
    """The capture as the players should see it: the overlay, and a ring on each spot to check.
    Draws the overlay the first time (see :class:`Capture`); call it off the UI thread."""
    _for_display(capture)
    base = getattr(capture, "annotated", None)
    if base is None:
        return capture.jpeg
    cal = getattr(capture.observation, "calibration", None)
    if spots and cal is not None and hasattr(cal, "to_image"):
        import cv2

        scale = float(getattr(capture, "scale", 1.0))
        base = base.copy()
        # The ring as wide as before the picture was shrunk: a 40th of the camera frame's width.
        radius = max(12, int(base.shape[1] / scale / 40)) * scale
        r = max(4, round(radius))
        for x, y in cal.to_image([list(p) for p in spots]):
            cv2.circle(base, (round(x * scale), round(y * scale)), r, (0, 0, 255), max(2, r // 5), cv2.LINE_AA)
    return encode_jpeg(base, width=DISPLAY_WIDTH, quality=80)


def _engine(game_name: str) -> type[Game[Any]]:
    if game_name not in GAMES:
        raise SessionError(f"unknown game {game_name!r} (known: {', '.join(GAMES)})")
    try:
        return game_class(game_name)
    except KeyError as exc:
        raise SessionError(str(exc.args[0])) from None


def _replay(stored: StoredGame, cls_: type[Game[Any]]) -> Game[Any]:
    game = cls_(stored.players, seed=stored.seed, options=stored.options)
    for i, action in enumerate(stored.actions):
        try:
            game.push(action)
        except RulesError as exc:
            raise SessionError(f"stored game {stored.id} cannot be replayed at action {i}: {exc}") from None
    return game


#: The banner while the disk refuses writes (SafeStore keeps them in memory meanwhile).
SAVING_PAUSED = ("Saving is paused: the disk refused to write. The game is kept in memory and saved "
                 "as soon as it can.")


def storage_notice(store: Any) -> str:
    """What the screen says about the database now: saving paused (with how many changes wait)
    or nothing. Stores without a holding queue (the plain Store) never pause."""
    if not getattr(store, "problem", None):
        return ""
    waiting = len(getattr(store, "pending", ()) or ())
    more = f" {waiting} change{'s' if waiting != 1 else ''} waiting; do not switch it off." if waiting else ""
    return SAVING_PAUSED + more


def startup_notice(store: Any) -> str:
    """The recovery report of this start (a damaged database moved aside and a backup restored),
    for the home screen; empty when the database opened cleanly."""
    report = getattr(store, "recovered", None)
    if report is None:
        return ""
    try:
        return str(report.message())
    except (AttributeError, TypeError, ValueError):
        return "The game database was damaged at start and has been recovered: check the history."


def _unsaved(store: Any) -> str:
    """The store's warning while the disk refuses writes (companion.recovery.SafeStore keeps them
    in memory meanwhile), so the table knows not to switch the companion off."""
    problem = getattr(store, "problem", None)
    return f" {problem}" if problem else ""


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _hits(action: Action, reading: Reading) -> int:
    from companion.reconcile import mentions

    return sum(1 for s in reading.diff.added if mentions(action, s.id))
