"""The view-model: the session's state as Kivy properties, and the calls the screens make.

Views (the .kv files) only bind to these properties and call these methods; all game logic stays
in :mod:`companion.session`. Camera work runs on a worker thread and comes back through
``Clock.schedule_once`` so Kivy widgets are only touched on the UI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty

from companion.session import Capture, Outcome, ScanError, Session, SessionError, picture, storage_notice
from companion.session.guides import SetupGuide, setup_guide
from companion.session.memory import trim
from companion.session.status import byway_checklists
from companion.store import Seat, Store

COLOUR_RGBA = {
    "red": (0.86, 0.2, 0.18, 1), "blue": (0.2, 0.45, 0.9, 1), "yellow": (0.95, 0.8, 0.15, 1),
    "green": (0.2, 0.7, 0.3, 1), "purple": (0.6, 0.35, 0.8, 1), "orange": (0.95, 0.55, 0.15, 1),
    "black": (0.15, 0.15, 0.15, 1), "white": (0.95, 0.95, 0.95, 1),
}


def rgba(colour: str) -> tuple[float, float, float, float]:
    return COLOUR_RGBA.get(colour, (0.6, 0.6, 0.6, 1))


class TableModel(EventDispatcher):
    """What every screen shows about the game in progress."""

    session = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    prompt = StringProperty("")
    message = StringProperty("")
    message_ok = BooleanProperty(True)
    busy = BooleanProperty(False)
    busy_text = StringProperty("")
    progress = NumericProperty(0)
    to_move_name = StringProperty("")
    to_move_colour = ListProperty([0.6, 0.6, 0.6, 1])
    scoreboard = ListProperty([])
    standings = ListProperty([])
    log_text = StringProperty("")
    can_undo = BooleanProperty(False)
    waiting_for_table = BooleanProperty(False)
    over = BooleanProperty(False)
    reference_text = StringProperty("")
    status_text = StringProperty("")
    #: Highways & Byways: each player's byway checklist (status.BywayChecklist), [] otherwise.
    byways = ListProperty([])
    #: Monster Highway: the board picture from the engine (PNG bytes), None for other games.
    board_picture = ObjectProperty(None, allownone=True)
    #: Actions offered when the picture fits several plays (the entry screen shows them).
    choices = ListProperty([])
    #: The newest random outcome the app drew ("Dice: Road + Car"), for the animation.
    announcement = StringProperty("")
    announce_count = NumericProperty(0)
    #: JPEG of the last table picture the app accepted, and spots (table mm) to highlight.
    picture = ObjectProperty(None, allownone=True)
    spots = ListProperty([])
    direction = StringProperty("clockwise")
    camera_status = StringProperty("")
    #: How many table pictures have been read (the starting look included).
    scans = NumericProperty(0)
    #: "Saving is paused..." while the disk refuses writes; empty otherwise.
    storage_text = StringProperty("")

    def __init__(self, store: Store, *, app_draws_all: bool = False, scanner: Any = None,
                 source: Any = None, engines: dict[str, Any] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.store = store
        self.app_draws_all = app_draws_all
        self.scanner = scanner
        self.source = source
        #: Engine classes by game id that override the registry (tests).
        self.engines = engines or {}
        self.on_turn: list[Callable[[int | None], None]] = []
        self.on_refused: list[Callable[[str], None]] = []

    # ------------------------------------------------------------------ starting and resuming
    def start(self, game: str, seats: list[Seat], *, options: dict[str, Any] | None = None,
              first_player: int = 0, seed: int | None = None) -> None:
        self.session = Session.new(self.store, game, seats, options=options, first_player=first_player,
                                   seed=seed, app_draws_all=self.app_draws_all, scanner=self.scanner,
                                   engine=self.engines.get(game))
        self.choices = []
        self._show(Outcome(True, f"{self.session.title} started: {', '.join(s.name for s in seats)}.",
                           announcements=list(self.session.log)))

    def resume(self, game_id: int) -> None:
        stored = self.store.load(game_id)
        self.session = Session.resume(self.store, game_id, app_draws_all=self.app_draws_all,
                                      scanner=self.scanner, engine=self.engines.get(stored.game))
        self.choices = []
        self._show(Outcome(True, f"Resumed {self.session.title} after {len(self.session.game.actions)} actions."))

    def close(self) -> None:
        self.session = None
        self.choices = []
        self.message = ""

    def setup_guide(self) -> SetupGuide:
        """The set-up of the game just started, one step at a time, naming its players."""
        s = self.session
        if s is None:
            raise SessionError("no game is started: there is nothing to set up")
        return setup_guide(s.guide, list(s.game.players), dict(s.game.options), s.first_player())

    # ------------------------------------------------------------------ actions
    def enter(self, action: Any) -> bool:
        """A play entered by hand (or picked among the picture's choices)."""
        if self.session is None or self.busy:
            return False
        try:
            out = self.session.play(action)
        except SessionError as exc:
            out = Outcome(False, str(exc))
        if out.ok:
            self.choices = []
        self._show(out)
        return out.ok

    def undo(self) -> None:
        if self.session is None or self.busy:
            return
        self._show(self.session.undo())

    def draw_for_table(self) -> None:
        if self.session is None or self.busy:
            return
        self._show(self.session.draw_for_table())

    def end_turn(self, *, after: Callable[[Outcome], None] | None = None, baseline: bool = False) -> None:
        """Scan the table off the UI thread, then reconcile on it (or, with ``baseline``, take
        the picture as the table to compare the next turns with)."""
        session = self.session
        if session is None or self.busy:
            return
        if self.source is None:
            self._show(Outcome(False, "No camera: enter the action by hand."))
            return
        self.busy = True
        self.busy_text = ("Reading the starting table..." if baseline
                          else "Reading the table: keep your hands away...")
        self.progress = 0.2

        def work() -> None:
            try:
                capture = session.capture(self.source)
            except Exception as exc:  # a worker that dies would leave the app "reading" for ever
                capture = Capture(None, error=ScanError.unexpected("the table could not be read", exc))
            Clock.schedule_once(lambda dt: self._captured(session, capture, after, baseline), 0)

        self._worker = threading.Thread(target=work, name="end-of-turn scan", daemon=True)
        self._worker.start()

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Let a running scan finish before the app exits: killing the interpreter under a
        thread that is inside OpenCV aborts the process instead of closing it."""
        for name in ("_worker", "_painter"):
            worker = getattr(self, name, None)
            if worker is not None and worker.is_alive():
                worker.join(timeout)

    def _captured(self, session: Session, capture: Any, after: Callable[[Outcome], None] | None,
                  baseline: bool = False) -> None:
        self.progress = 0.8
        self.busy = False
        self.scans += 1
        if session is not self.session:
            return  # the game was left while the camera worked
        out = session.baseline(capture) if baseline else session.accept(capture)
        if out.choices:
            self.choices = list(out.choices)
        self._show(out)
        if capture.has_picture:
            # The newest picture, annotated, with rings where the players should look.
            self._show_picture(capture, out.spots)
        if after is not None:
            after(out)

    def _show_picture(self, capture: Any, spots: list[Any]) -> None:
        """Draw the reading (overlay, rings) and compress it on a worker thread: the result is on
        the screen first and the picture follows; only the newest request is shown."""
        self._picture_seq = getattr(self, "_picture_seq", 0) + 1
        seq = self._picture_seq

        def work() -> None:
            try:
                data = picture(capture, spots)
            except ScanError:  # the picture could not be compressed: the turn's own JPEG will do
                data = getattr(capture, "jpeg", None)
            Clock.schedule_once(lambda dt: self._set_picture(seq, data), 0)
            trim()  # the scan's freed temporaries back to the system (see companion.session.memory)

        self._painter = threading.Thread(target=work, name="table picture", daemon=True)
        self._painter.start()

    def _set_picture(self, seq: int, data: bytes | None) -> None:
        if seq == self._picture_seq:
            self.picture = data

    def control(self, event: Any) -> None:
        """A hardware or keyboard ControlEvent (already on the UI thread)."""
        kind = getattr(event, "action", event)
        if self.session is not None:
            refused = self.session.wrong_seat(event)
            if refused is not None:
                self._show(refused)
                return
        if kind == "undo":
            self.undo()
        elif kind in ("end_turn", "scan"):
            self.end_turn()

    def finish(self) -> dict[str, Any]:
        assert self.session is not None
        result = self.session.finish()
        return result

    def abandon(self) -> None:
        if self.session is not None and not self.session.over:
            self.session.abandon()
        self.close()

    # ------------------------------------------------------------------ refresh
    def _show(self, out: Outcome) -> None:
        self.message = out.message
        self.message_ok = out.ok
        self.spots = [list(s) for s in out.spots]
        for line in out.announcements:
            self.log_text = (line + "\n" + self.log_text)[:4000]
        drawn = [a for a in out.recorded if a.player is None]
        if drawn and self.session is not None:
            self.announcement = self.session.describe(drawn[-1])
            self.announce_count += 1
        if not out.ok:
            for cb in self.on_refused:
                cb(out.message)
        self.refresh()

    def retry_saving(self) -> None:
        """Called every few seconds: write what the disk refused, and update the banner."""
        if self.session is not None and not self.busy:
            self.session.retry_saving()
        self.storage_text = storage_notice(self.store)

    def refresh(self) -> None:
        self.storage_text = storage_notice(self.store)
        s = self.session
        if s is None:
            return
        self.title = s.title
        self.prompt = s.prompt()
        self.status_text = "\n".join(s.status())
        self.byways = byway_checklists(s.game)
        self.board_picture = s.board_picture()
        self.over = s.over
        self.can_undo = s.can_undo()
        self.waiting_for_table = s.waiting_for_table()
        self.scoreboard = s.scoreboard()
        self.direction = s.guide.direction
        turn = s.to_move()
        if turn is None:
            self.to_move_name = "Game over" if s.over else "The app"
            self.to_move_colour = [0.6, 0.6, 0.6, 1]
        else:
            self.to_move_name = s.seats[turn].name
            self.to_move_colour = list(rgba(s.seats[turn].colour))
        self.reference_text = "\n\n".join(f"[b]{k.replace('_', ' ').capitalize()}[/b]: {v}"
                                          for k, v in s.reference())
        if s.over:
            self.standings = s.standings()
        spots = s.highlights()
        if spots != getattr(self, "_ringed", None) and s.accepted_capture is not None:
            # Ring the legal spots / the Monster's space on the last reading of the table.
            self._ringed = spots
            self._show_picture(s.accepted_capture, spots)
        elif self.picture is None:
            self.picture = s.accepted_jpeg
        for cb in self.on_turn:
            cb(turn)
