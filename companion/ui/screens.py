"""The screens. Each builds its repeated rows (games, players, scores) from the view-model and
forwards taps to it; the layout lives in the matching .kv file."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion.session import COLOURS, EDGES, SessionError, guide
from companion.store import Seat
from rules import RulesError, registry

from .scrolling import bring_into_view, hold_at
from .touchkeys import TouchKeyboard
from .viewmodel import rgba


def app() -> Any:
    return App.get_running_app()


def texture_from_bgr(image: Any) -> Texture:
    h, w = image.shape[:2]
    tex = Texture.create(size=(w, h), colorfmt="bgr")
    tex.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    tex.flip_vertical()
    return tex


def texture_from_jpeg(data: bytes) -> Texture | None:
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return None if image is None else texture_from_bgr(image)


class BigButton(Button):
    pass


class Row(BoxLayout):
    pass


class CameraView(Image):
    """The live camera picture, refreshed a few times a second on the UI thread (``latest()``
    never waits on the camera, so this never blocks the screen)."""

    source_obj = ObjectProperty(None, allownone=True)
    last_index = NumericProperty(-1)
    status = StringProperty("No camera")
    #: Showing the last reading (with its overlay) instead of the live picture.
    frozen = BooleanProperty(False)

    caption = StringProperty("")

    def show_picture(self, jpeg: bytes | None, caption: str = "Last reading") -> None:
        tex = texture_from_jpeg(jpeg) if jpeg else None
        if tex is not None:
            self.texture = tex
            self.frozen = True
            self.caption = caption

    def live(self) -> None:
        self.frozen = False
        self.last_index = -1

    def on_kv_post(self, base: Any) -> None:
        self._event = None

    def start(self, source: Any) -> None:
        self.source_obj = source
        if source is not None and hasattr(source, "start"):
            try:
                source.start()
            except Exception as exc:  # reported on screen; the game goes on by hand entry
                self.status = f"Camera: {exc}"
        if self._event is None:
            self._event = Clock.schedule_interval(self._poll, 1 / 8)

    def stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    def _poll(self, _dt: float) -> None:
        src = self.source_obj
        if self.frozen:
            return
        if src is None:
            self.status = "No camera: enter plays by hand"
            return
        frame = src.latest()
        if frame is None or frame.index == self.last_index:
            return
        self.last_index = frame.index
        import cv2

        image = frame.image
        h, w = image.shape[:2]
        width = max(64, int(self.width))
        small = cv2.resize(image, (width, max(1, int(h * width / w))), interpolation=cv2.INTER_AREA)
        size = (small.shape[1], small.shape[0])
        live = getattr(self, "_live_texture", None)
        if live is not None and self.texture is live and tuple(live.size) == size:
            # Eight pictures a second into the same texture: a new texture each time left the
            # software GL's allocations to the garbage collector.
            live.blit_buffer(small.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
            self.canvas.ask_update()
        else:
            self._live_texture = self.texture = texture_from_bgr(small)
        self.status = ""


# ---------------------------------------------------------------------- home
class HomeScreen(Screen):
    notice = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="home", **kw)

    def on_pre_enter(self, *args: Any) -> None:
        from companion.session import startup_notice, storage_notice

        said = [app().notice]
        recovered = startup_notice(app().store)
        if recovered and recovered not in app().notice:
            said.insert(0, recovered)
        said.append(storage_notice(app().store))
        self.notice = " ".join(x for x in said if x)
        games = self.ids.games
        games.clear_widgets()
        available = set(registry.available())
        for game_id, (_mod, _cls, title) in registry.GAMES.items():
            ok = game_id in available or game_id in app().engines
            b = BigButton(text=title if ok else f"{title}\n[size=12sp](not installed)[/size]", markup=True,
                          disabled=not ok)
            b.bind(on_release=lambda _b, g=game_id: self.choose(g))
            games.add_widget(b)
        for game_id in app().engines:
            if game_id not in registry.GAMES:
                b = BigButton(text=guide(game_id).title)
                b.bind(on_release=lambda _b, g=game_id: self.choose(g))
                games.add_widget(b)
        resume = self.ids.resume
        resume.clear_widgets()
        for g in app().store.unfinished()[:3]:
            title = guide(g.game).title
            b = BigButton(text=f"Resume {title}: {', '.join(g.players)} ({len(g.actions)} actions)")
            b.bind(on_release=lambda _b, gid=g.id: self.resume(gid))
            resume.add_widget(b)

    def choose(self, game_id: str) -> None:
        players = self.manager.get_screen("players")
        players.game = game_id
        self.manager.current = "players"

    def resume(self, game_id: int) -> None:
        try:
            app().vm.resume(game_id)
        except (SessionError, RulesError) as exc:
            self.notice = str(exc)
            return
        self.manager.current = "end" if app().vm.over else "game"

    def menu(self) -> None:
        MenuView().open()


# ---------------------------------------------------------------------- players
class PlayersScreen(Screen):
    game = StringProperty("")
    title = StringProperty("")
    count = NumericProperty(2)
    first = NumericProperty(0)
    error = StringProperty("")
    names = ListProperty([])
    colours = ListProperty([])
    #: A name is being typed on the on-screen keyboard (the kiosk's touchscreen has no keys).
    typing = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="players", **kw)
        self.options: dict[str, Any] = {}
        self.fields: list[TextInput] = []

    def engine(self) -> Any:
        if self.game in app().engines:
            return app().engines[self.game]
        return registry.game_class(self.game)

    def on_pre_enter(self, *args: Any) -> None:
        cls = self.engine()
        self.title = guide(self.game, cls.title).title
        self.min, self.max = cls.min_players, min(cls.max_players, len(COLOURS))
        self.count = max(self.min, min(self.count, self.max))
        if not self.names:
            self.names = [f"Player {i + 1}" for i in range(len(COLOURS))]
            self.colours = list(COLOURS)
        self.options = dict(cls.default_options)
        self.error = ""
        self.script = None
        if app().demo:
            # The demo follows the game's bundled example record: its players, seed and options.
            from companion.session.demo import example_record

            self.script = example_record(self.game)
            if self.script is not None and self.min <= len(self.script.players) <= self.max:
                self.count = len(self.script.players)
                self.names[: self.count] = list(self.script.players)
                self.first = 0
                self.options.update(self.script.options)
        self.rebuild()

    def rebuild(self) -> None:
        self.stop_typing()
        box = self.ids.rows
        box.clear_widgets()
        self.fields = []
        for i in range(self.count):
            row = Row(size_hint_y=None, height=app().u * 52)
            name = TextInput(text=self.names[i], multiline=False, write_tab=False,
                             font_size=app().u * 22, size_hint_x=0.5,
                             padding=(app().u * 10, app().u * 12, app().u * 10, app().u * 8))
            name.bind(text=lambda _w, t, i=i: self._set_name(i, t), focus=self._field_focus)
            self.fields.append(name)
            colour = BigButton(text=self.colours[i], background_normal="", background_color=rgba(self.colours[i]),
                               color=(0, 0, 0, 1) if self.colours[i] in ("yellow", "orange", "green") else (1, 1, 1, 1),
                               size_hint_x=0.25, height=app().u * 52)
            colour.bind(on_release=lambda _b, i=i: self._next_colour(i))
            starts = ToggleButton(text="starts" if i == self.first else "tap: starts", group="first",
                                  state="down" if i == self.first else "normal", size_hint_x=0.25,
                                  font_size=app().u * 18, allow_no_selection=False)
            starts.bind(on_release=lambda _b, i=i: self._set_first(i))
            row.add_widget(name)
            row.add_widget(colour)
            row.add_widget(starts)
            box.add_widget(row)
        opts = self.ids.options
        opts.clear_widgets()
        for key, value in self.options.items():
            if isinstance(value, bool):
                t = ToggleButton(text=_option_label(self.game, key), state="down" if value else "normal",
                                 font_size=app().u * 18)
                t.bind(state=lambda _w, st, k=key: self.options.__setitem__(k, st == "down"))
                opts.add_widget(t)

    def _set_name(self, i: int, text: str) -> None:
        self.names[i] = text

    def has_text_focus(self) -> bool:
        return any(f.focus for f in self.fields)

    # -------------------------------------------------------------- the on-screen keyboard
    def _field_focus(self, field: TextInput, focused: bool) -> None:
        if not app().touch_keyboard:
            return  # a desktop (the demo): the physical keyboard types, nothing covers the rows
        keys: TouchKeyboard = self.ids.keyboard
        if focused:
            keys.target = field
            self.typing = True
            self._trigger_keep_in_view()
        else:
            # Tapping another name moves the focus there: the keyboard stays for that one.
            Clock.schedule_once(lambda _dt: self.stop_typing() if not any(f.focus for f in self.fields)
                                else None, 0)

    def _keep_in_view(self, *_args: Any) -> None:
        """The field being typed into stays in sight above the keyboard, which takes the bottom of
        the screen: the rows shrink to the room left and scroll to that field, and stay there (see
        companion.ui.scrolling for why scroll_to alone did not)."""
        field = self.ids.keyboard.target
        if self.typing and field is not None and field.parent is not None \
                and not bring_into_view(self.ids.scroll, field.parent, padding=app().u * 4):
            self._trigger_keep_in_view()  # the rows are still being laid out: again next frame

    def on_kv_post(self, base_widget: Any) -> None:
        self._trigger_keep_in_view = Clock.create_trigger(self._keep_in_view, 0)
        # The rows shrink once the keyboard has taken its room (and grow with a row more): scroll
        # again then, once the layout is done.
        scroll = self.ids.scroll
        scroll.bind(height=lambda *_a: self._trigger_keep_in_view())
        scroll.children[0].bind(height=lambda *_a: self._trigger_keep_in_view())

    def stop_typing(self) -> None:
        """Close the on-screen keyboard (Done, Enter, a tap elsewhere, leaving the screen)."""
        for field in self.fields:
            field.focus = False
        self.ids.keyboard.target = None
        if self.typing:
            # The rows have their room back: top first again, as before the typing (a scroll
            # left at the bottom would float them below an empty gap).
            hold_at(self.ids.scroll, 1.0)
        self.typing = False

    def on_leave(self, *args: Any) -> None:
        self.stop_typing()

    def _next_colour(self, i: int) -> None:
        taken = set(self.colours[: self.count]) - {self.colours[i]}
        k = COLOURS.index(self.colours[i]) if self.colours[i] in COLOURS else 0
        for step in range(1, len(COLOURS) + 1):
            cand = COLOURS[(k + step) % len(COLOURS)]
            if cand not in taken:
                self.colours[i] = cand
                break
        self.rebuild()

    def _set_first(self, i: int) -> None:
        self.first = i
        self.rebuild()

    def more(self, delta: int) -> None:
        self.count = max(self.min, min(self.max, self.count + delta))
        self.first = min(self.first, self.count - 1)
        self.rebuild()

    def start(self) -> None:
        seats = [Seat(self.names[i].strip(), self.colours[i], EDGES[i % len(EDGES)]) for i in range(self.count)]
        seed = None
        rec = self.script
        if rec is not None and [s.name for s in seats] == list(rec.players) and self.first == 0 \
                and self.options == {**self.options, **rec.options}:
            seed = rec.seed
        try:
            app().vm.start(self.game, seats, options=self.options, first_player=self.first, seed=seed)
        except (SessionError, RulesError) as exc:
            self.error = str(exc)
            return
        self.manager.current = "setup"


def _option_label(game: str, key: str) -> str:
    labels = {("bigsur", "landmarks"): "Advanced game: Landmarks"}
    return labels.get((game, key), key.replace("_", " ").capitalize())


# ---------------------------------------------------------------------- guided setup
class SetupScreen(Screen):
    """The set-up one step at a time (session.guides.SetupGuide walks it; this only shows it)."""

    step_title = StringProperty("")
    step_text = StringProperty("")
    progress = StringProperty("")
    fraction = NumericProperty(0)
    first = BooleanProperty(True)
    last = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="setup", **kw)
        self.guide: Any = None

    def on_pre_enter(self, *args: Any) -> None:
        self.guide = app().vm.setup_guide()
        self.show()

    def show(self) -> None:
        g = self.guide
        self.step_title, self.step_text, self.progress = g.step.title, g.step.text, g.progress
        self.fraction = (g.index + 1) / len(g.steps)
        self.first, self.last = g.is_first, g.is_last
        box = self.ids.who
        box.clear_widgets()
        u = app().u
        colours = {s.name: s.colour for s in app().vm.session.seats}
        for i, name in enumerate(g.step.players):
            label = Label(text=name + ("  >" if i + 1 < len(g.step.players) else ""), bold=True, font_size=u * 20,
                          color=rgba(colours.get(name, "")), size_hint_x=None)
            label.bind(texture_size=lambda w, size: setattr(w, "width", size[0]))
            box.add_widget(label)
        if g.step.players:
            box.add_widget(Widget())  # the names from the left, in the order they act

    def next(self) -> None:
        if self.guide.next():
            self.manager.current = "game"
        else:
            self.show()

    def back(self) -> None:
        try:
            self.guide.back()
        except SessionError:
            return  # the Back button is disabled on the first step; a stray tap changes nothing
        self.show()


# ---------------------------------------------------------------------- the game
class GameScreen(Screen):
    def __init__(self, **kw: Any) -> None:
        super().__init__(name="game", **kw)
        self._bound = False

    def on_pre_enter(self, *args: Any) -> None:
        vm = app().vm
        if not self._bound:
            vm.bind(scoreboard=lambda *_: self.rebuild_scores(), announce_count=lambda *_: self.animate())
            vm.bind(over=lambda _w, over: self._over(over))
            vm.bind(picture=lambda _w, pic: self.ids.camera.show_picture(pic))
            vm.bind(announcement=lambda _w, text: self._monster_moved(text))
            self._bound = True
        vm.refresh()
        self.rebuild_scores()
        self.ids.camera.start(app().source)
        session = vm.session
        if session is not None and app().source is not None and not session.accepted_items \
                and getattr(self, "_baselined", None) is not session:
            # First look at the table: what lies there now is the start, not a play.
            self._baselined = session
            Clock.schedule_once(lambda dt: vm.end_turn(baseline=True), 0.3)

    def on_leave(self, *args: Any) -> None:
        self.ids.camera.stop()

    def show_board(self) -> None:
        self.ids.camera.show_picture(app().vm.board_picture, "The board as the app knows it")

    def _monster_moved(self, text: str) -> None:
        """A Monster Card or a Monster move: show where it went on the board picture."""
        if app().vm.board_picture is not None and "onster" in text:
            self.show_board()

    def _over(self, over: bool) -> None:
        if over and self.manager.current == "game":
            Clock.schedule_once(lambda dt: setattr(self.manager, "current", "end"), 0.8)

    def rebuild_scores(self) -> None:
        box = self.ids.scores
        box.clear_widgets()
        u = app().u
        for row in app().vm.scoreboard:
            line = Row(size_hint_y=None, height=u * 29)
            mark = "> " if row["to_move"] else "   "
            shown = str(row.get("shown", row["total"]))
            # A score in words ("8 spaces from home") takes more of the row than a number.
            wide = not shown.lstrip("-").isdigit()
            line.add_widget(Label(text=f"{mark}{row['name']}", color=rgba(row["colour"]), font_size=u * 19,
                                  bold=row["to_move"], halign="left", valign="middle", shorten=True,
                                  text_size=(u * (110 if wide else 170), None), size_hint_x=0.4 if wide else 0.75))
            score = Label(text=shown, font_size=u * (17 if wide else 21), bold=True,
                          size_hint_x=0.6 if wide else 0.25, halign="right" if wide else "center",
                          valign="middle", shorten=True)
            score.bind(size=lambda w, size: setattr(w, "text_size", (size[0], None)))
            line.add_widget(score)
            box.add_widget(line)

    def animate(self) -> None:
        """A short roll: the announcement grows and settles (dice, monster cards, reveals)."""
        label = self.ids.announce
        Animation.cancel_all(label)
        label.opacity = 0.2
        label.font_size = app().u * 12
        (Animation(opacity=1, font_size=app().u * 21, d=0.25, t="out_back")
         + Animation(font_size=app().u * 18, d=0.15)).start(label)

    def next_move(self) -> None:
        """Demo: the scripted game's next move, entered as a player would by hand."""
        script = app().demo_script
        vm = app().vm
        if vm.session is None or vm.over:
            return
        action = script.next_action(vm.session.game) if script is not None else None
        if action is None:
            vm.message = "The demo script has no move here: enter one by hand."
            vm.message_ok = False
            return
        vm.enter(action)

    def end_turn(self) -> None:
        vm = app().vm
        from companion.session.demo import scripted_table_games

        if app().demo and app().source is not None and vm.session is not None \
                and vm.session.game.name in scripted_table_games() and app().demo_script is not None \
                and hasattr(app().source, "show"):
            self._demo_table_turn()
        elif app().demo and app().source is not None:
            # Demo: show the camera reading, then play the scripted move the scene stands for.
            vm.end_turn(after=self._demo_after_scan)
        else:
            vm.end_turn()

    def _demo_table_turn(self) -> None:
        """Demo (Big Sur, Roundabout, Monster Highway, Highwayman; Highways & Byways shows its
        construction slot only): the scripted player's other actions are
        entered as by touch (draws, flips, dice), the plays made on the table (builds, placed
        cards and tiles) are laid on a rendered table, and the camera reads them like at a real
        table."""
        from companion.session.demo import table_kinds

        vm = app().vm
        session = vm.session
        script = app().demo_script
        player = session.to_move()
        for _ in range(20):
            nxt = script.next_action(session.game)
            kinds = table_kinds(session.game.name)
            if nxt is None or nxt.player != player or nxt.kind in kinds or nxt.kind == "end_turn":
                break
            if not vm.enter(nxt):
                return
        after = session._copy_game()
        planned = []
        for _ in range(20):
            nxt = script.next_action(after)
            if nxt is None or nxt.player != player or nxt.kind not in table_kinds(session.game.name):
                break
            after.push(nxt)
            planned.append(nxt)
        if not planned and table_kinds(session.game.name):
            vm.end_turn(after=self._demo_after_scan)
            return
        record = after.record().to_json()
        source = app().source
        vm.busy = True
        vm.busy_text = "Demo: laying the play on the table..."
        vm.progress = 0.1

        def work() -> None:
            from companion.session.demo import render_table_isolated

            try:
                image = render_table_isolated(record)
            except Exception as exc:  # the renderer is demo scenery: say so and go on by hand
                message = f"The demo table could not be drawn ({exc})."
                Clock.schedule_once(lambda dt: self._demo_fallback(message), 0)
                return
            Clock.schedule_once(lambda dt: self._demo_read(source, image, planned), 0)

        import threading

        threading.Thread(target=work, name="demo table", daemon=True).start()

    def _demo_read(self, source: Any, image: Any, planned: list[Any]) -> None:
        vm = app().vm
        source.show([image])
        if not planned:
            # Highways & Byways: nothing a player does lies on the table as a card; the camera
            # shows the table as it now is (the construction slot's card), then the scripted
            # player's turn goes on by touch.
            def shown(_out: Any) -> None:
                self.next_move()

            Clock.schedule_once(lambda dt: (setattr(vm, "busy", False), vm.end_turn(baseline=True, after=shown)),
                                0.3)
            return

        def done(out: Any) -> None:
            if out.choices:
                pick = next((a for a in planned if a in out.choices), None)
                if pick is not None:
                    vm.enter(pick)  # the players answer "which payment?" as the script did
                    vm.message = f"Camera read the play; the script chose: {vm.message}"
            elif not out.ok:
                self._demo_fallback(f"Camera: {out.message}")

        def read(_dt: float) -> None:
            vm.busy = False  # end_turn() refuses while busy; it sets busy again at once
            vm.end_turn(after=done)

        # Let the replay camera deliver the new picture before reading it.
        Clock.schedule_once(read, 0.3)

    def _demo_fallback(self, message: str) -> None:
        vm = app().vm
        vm.busy = False
        self.next_move()
        vm.message = f"{message} Demo move: {vm.message}"

    def _demo_after_scan(self, out: Any) -> None:
        """Demo: the rendered scene is not the scripted game's table, so after showing what the
        camera read, the scripted move is entered as a player would by hand."""
        if out.ok:
            return
        seen = out.message
        self.next_move()
        vm = app().vm
        vm.message = f"Camera: {seen}  Demo move: {vm.message}"
        turn = getattr(app(), "next_scene", None)
        if turn is not None:
            turn()

    def menu(self) -> None:
        MenuView().open()


class MenuView(ModalView):
    confirm = StringProperty("")

    def ask(self, what: str) -> None:
        self.confirm = what

    def reread(self) -> None:
        """After the players fixed the table by hand (or the app misread it), take the table as
        it is now as the picture to compare the next turns with."""
        self.dismiss()
        app().vm.end_turn(baseline=True)

    def do(self) -> None:
        a = app()
        what = self.confirm
        self.dismiss()
        if what == "home":
            a.vm.close()
            a.sm.current = "home"
        elif what == "abandon":
            a.vm.abandon()
            a.sm.current = "home"
        elif what == "quit":
            a.stop()


# ---------------------------------------------------------------------- hand entry
class EntryScreen(Screen):
    kinds = ListProperty([])
    kind = StringProperty("")
    heading = StringProperty("Enter an action")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="entry", **kw)
        self.options: list[tuple[str, Any]] = []
        self.groups: list[str] = []

    def on_pre_enter(self, *args: Any) -> None:
        vm = app().vm
        if vm.choices:
            self.heading = "The picture fits several plays: which one?"
            self.options = [(vm.session.describe(a), a) for a in vm.choices]
        else:
            self.heading = "Enter an action"
            self.options = vm.session.hand_entry() if vm.session is not None else []
        group = vm.session.entry_group if vm.session is not None else (lambda a: a.kind)
        self.groups = [group(a) for _, a in self.options]
        kinds: list[str] = []
        for g in self.groups:
            if g not in kinds:
                kinds.append(g)
        self.kinds = kinds
        self.kind = kinds[0] if len(kinds) == 1 else ""
        self.rebuild()

    def rebuild(self) -> None:
        bar = self.ids.kinds
        bar.clear_widgets()
        if len(self.kinds) > 1:
            for k in ["", *self.kinds]:
                t = ToggleButton(text=k or "all", group="kinds",
                                 state="down" if k == self.kind else "normal", font_size=app().u * 18,
                                 allow_no_selection=False)
                t.bind(on_release=lambda _b, k=k: self.filter(k))
                bar.add_widget(t)
        self.ids.list.data = [
            {"text": label, "index": i}
            for i, (label, _a) in enumerate(self.options) if not self.kind or self.groups[i] == self.kind]

    def filter(self, kind: str) -> None:
        self.kind = kind
        self.rebuild()

    def pick(self, index: int) -> None:
        _, action = self.options[index]
        if app().vm.enter(action):
            self.manager.current = "end" if app().vm.over else "game"
        else:
            self.manager.current = "game"

    def back(self) -> None:
        app().vm.choices = []
        self.manager.current = "game"


class EntryItem(Button):
    index = NumericProperty(0)


# ---------------------------------------------------------------------- byway checklists
#: Text colour of a byway's progress on the checklist.
PROGRESS_RGBA = {"driven": (0.5, 0.95, 0.5, 1), "driving": (1, 0.85, 0.35, 1), "to drive": (0.8, 0.8, 0.8, 1)}


class BywaysScreen(Screen):
    """Highways & Byways: every player's byways with done / part-way / not yet (the session's
    status.byway_checklists), scrollable."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="byways", **kw)

    def on_pre_enter(self, *args: Any) -> None:
        vm = app().vm
        vm.refresh()
        self.rebuild(vm.byways, vm.session.seats if vm.session is not None else [])

    def rebuild(self, checklists: list[Any], seats: list[Any]) -> None:
        box = self.ids.lists
        box.clear_widgets()
        u = app().u
        for checklist in checklists:
            colour = seats[checklist.seat].colour if checklist.seat < len(seats) else ""
            dropped = f"  ({checklist.dropped} removed at planning)" if checklist.dropped else ""
            box.add_widget(_wrapped(f"[b]{checklist.summary}[/b]{dropped}", font_size=u * 21, min_height=u * 34,
                                    color=rgba(colour), markup=True))
            if not checklist.entries:
                box.add_widget(_wrapped("No byways yet: the planning draft deals them.", font_size=u * 17,
                                        min_height=u * 28))
            for entry in checklist.entries:
                row = Row(size_hint_y=None, height=u * 30)
                name = _wrapped(entry.label, font_size=u * 17, min_height=u * 30)
                name.size_hint_x = 0.7
                name.bind(height=lambda w, h, r=row: setattr(r, "height", max(h, u * 30)))
                row.add_widget(name)
                state = Label(text=entry.progress, font_size=u * 17, bold=entry.state != "to drive",
                              color=PROGRESS_RGBA.get(entry.state, (1, 1, 1, 1)), size_hint_x=0.3,
                              halign="right", valign="top", size_hint_y=None, height=u * 30,
                              pos_hint={"top": 1})
                state.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
                row.add_widget(state)
                box.add_widget(row)


# ---------------------------------------------------------------------- rules reference
class RulesScreen(Screen):
    def __init__(self, **kw: Any) -> None:
        super().__init__(name="rules", **kw)


# ---------------------------------------------------------------------- end of game
def _wrapped(text: str, *, font_size: float, min_height: float, **kw: Any) -> Label:
    """A left-aligned label that wraps to its width and grows to its lines, so a long breakdown
    line ("Roundabout at point (3, -1): +1, +2 for arrows") reads in full on the 7-inch screen."""
    label = Label(text=text, font_size=font_size, size_hint_y=None, height=min_height, halign="left",
                  valign="top", **kw)
    # A little room on the right keeps the last word clear of the scroll bar.
    label.bind(width=lambda w, width: setattr(w, "text_size", (max(1.0, width - font_size * 0.8), None)),
               texture_size=lambda w, size: setattr(w, "height", max(min_height, size[1])))
    return label


class EndScreen(Screen):
    confirmed = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="end", **kw)

    def on_pre_enter(self, *args: Any) -> None:
        vm = app().vm
        self.confirmed = ""
        box = self.ids.standings
        box.clear_widgets()
        u = app().u
        for s in vm.standings:
            head = Label(text=f"{s['place']}. {s['name']}   {s['score']}", color=rgba(s["colour"]),
                         font_size=u * 24, bold=True, size_hint_y=None, height=u * 36, halign="left",
                         text_size=(u * 420, None))
            box.add_widget(head)
            for ln in s["breakdown"]:
                box.add_widget(_wrapped(f"{ln['points']:+d}  {ln['label']}", font_size=u * 17, min_height=u * 26))
        series = vm.session.series() if vm.session is not None else []
        if series and series[0]["games"] > 1:
            box.add_widget(Label(text=f"Series after {series[0]['games']} games (lowest wins): " + ", ".join(
                f"{s['place']}. {s['name']} {s['score']}" for s in series), font_size=u * 18, bold=True,
                size_hint_y=None, height=u * 52, halign="left", text_size=(u * 420, None)))
        pic = vm.picture
        tex = texture_from_jpeg(pic) if pic else None
        self.ids.picture.texture = tex
        self.ids.picture.opacity = 1 if tex is not None else 0

    def confirm(self) -> None:
        vm = app().vm
        try:
            vm.finish()
        except (SessionError, ValueError) as exc:
            self.confirmed = str(exc)
            return
        vm.close()
        self.manager.current = "history"

    def undo(self) -> None:
        app().vm.undo()
        if not app().vm.over:
            self.manager.current = "game"


# ---------------------------------------------------------------------- history
class HistoryScreen(Screen):
    exported = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(name="history", **kw)

    def on_pre_enter(self, *args: Any) -> None:
        self.exported = ""
        box = self.ids.stats
        box.clear_widgets()
        u = app().u
        stats = app().store.player_stats()
        head = Row(size_hint_y=None, height=u * 30)
        for text in ("Player", "Game", "Played", "Wins", "Average", "Best"):
            head.add_widget(Label(text=f"[b]{text}[/b]", markup=True, font_size=u * 17))
        box.add_widget(head)
        for s in stats:
            row = Row(size_hint_y=None, height=u * 28)
            for text in (s["player"], guide(s["game"]).title, s["games"], s["wins"], s["average"], s["best"]):
                row.add_widget(Label(text=str(text), font_size=u * 16, shorten=True, text_size=(u * 120, None),
                                     halign="center"))
            box.add_widget(row)
        if not stats:
            box.add_widget(Label(text="No finished games yet.", font_size=u * 20, size_hint_y=None, height=u * 40))

    def export(self) -> None:
        store = app().store
        out = Path(store.path).parent / "exports"
        out.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        (out / f"plays-{stamp}.csv").write_text(store.plays_csv(), encoding="utf-8")
        plays = [store.bgstats_play(g.id, title=guide(g.game).title) for g in store.finished_games()]
        (out / f"bgstats-{stamp}.json").write_text(json.dumps(plays, indent=1), encoding="utf-8")
        self.exported = f"Saved {len(plays)} plays to {out}"
