"""Drives the real Kivy app with simulated touches: one whole game, a screenshot of every screen.

Run by tests/ui/test_ui.py in a subprocess (Kivy has one window per process):

    python -m tests.ui.drive GAME --out artifacts/screens --size 800x480 --data DIR [--script S]

Scripts: ``game`` taps through a whole game (home, players, setup, game, hand entry, rules, the
scripted moves, end, history); ``start`` starts a game, plays a few moves and prints each
confirmed action; ``resume`` taps "Resume" on the home screen and prints the resumed actions;
``names`` types a player's name, with ``--kiosk`` on the on-screen keyboard, else on the desktop's;
``rows`` (with ``--kiosk``) reaches every name of the largest group while the on-screen keyboard is up.
Every step is a real touch on the widget found by its text; a check that fails raises, which
stops the app with a traceback and a non-zero exit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("game")
    p.add_argument("--out", default="artifacts/screens")
    p.add_argument("--size", default="800x480")
    p.add_argument("--data", required=True)
    p.add_argument("--script", default="game", choices=["game", "start", "resume", "storage", "names", "rows"])
    p.add_argument("--kiosk", action="store_true", help="as the kiosk: a touchscreen with no keyboard")
    p.add_argument("--max-moves", type=int, default=2000)
    args = p.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    os.environ["COMPANION_DATA"] = args.data

    from companion.ui.window import configure_window

    configure_window(width=w, height=h)
    from kivy.clock import Clock

    from companion.session.demo import DemoScript, demo_pictures
    from companion.store import Store
    from companion.ui.app import CompanionApp
    from hardware import ReplaySource

    frames = demo_pictures(args.game, count=2, size=(1152, 648))
    source = ReplaySource(frames[:1], loop=True, fps=4)
    if args.script == "storage":
        from companion.recovery import SafeStore

        store = SafeStore(Path(args.data) / "companion.sqlite3")
    else:
        store = Store(Path(args.data) / "companion.sqlite3")
    app = CompanionApp(store=store, source=source, demo=True, kiosk=args.kiosk)
    if args.script == "names" and not args.kiosk:
        from hardware import KeyboardControls

        # As in `companion demo`: the desktop keyboard also drives End turn and Undo.
        app.controls = KeyboardControls(seats=4, on_event=app.control_event)
    scenes = iter(frames * 10_000)
    app.next_scene = lambda: source.show([next(scenes)])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tag = f"{args.game}-{w}x{h}" + ("-kiosk" if args.kiosk else "")
    script = {"game": whole_game, "start": start_and_play, "resume": resume, "storage": saving_paused,
              "names": names, "rows": every_row}[args.script]
    steps = script(app, args, out, tag)
    failure: list[BaseException] = []

    def tick(_dt: float) -> None:
        try:
            next(steps)
        except StopIteration:
            app.stop()
        except BaseException as exc:  # report after the loop: Kivy would swallow it in a callback
            failure.append(exc)
            app.stop()

    def begin(_dt: float) -> None:
        app.demo_script = DemoScript.for_game(args.game)
        Clock.schedule_interval(tick, 0)

    Clock.schedule_once(begin, 0.5)
    try:
        app.run()
    except BaseException as exc:  # an error raised inside the app's own callbacks
        failure.append(exc)
    if failure:
        import traceback

        # Kivy routes sys.stderr into its logger; write the failure where the test can read it.
        traceback.print_exception(failure[0], file=sys.__stderr__)
        return 1
    return 0


# ---------------------------------------------------------------------- helpers
def widgets(root):
    yield root
    for child in root.children:
        yield from widgets(child)


def find(app, text, *, screen=True):
    from kivy.uix.button import Button

    base = app.sm.current_screen if screen else app.root_window
    found = [w for w in widgets(base) if isinstance(w, Button) and w.text.split("\n")[0].strip() == text
             and not w.disabled and w.opacity > 0]
    if not found:
        texts = sorted({w.text for w in widgets(base) if isinstance(w, Button)})
        raise AssertionError(f"no enabled button {text!r} on {app.sm.current}; buttons: {texts}")
    return found[0]


def popups_open(app):
    from kivy.uix.modalview import ModalView

    return [w for w in app.root_window.children if isinstance(w, ModalView)]


_touch_class = None


def finger():
    """A one-point touch MotionEvent. Kivy's own (kivy.tests.common.UnitTestTouch) comes with an
    import of pytest, unittest and pygments, about 7 MB the app itself never holds, into the
    process whose memory bench/app.py reports."""
    global _touch_class
    if _touch_class is None:
        from kivy.input.motionevent import MotionEvent

        class Finger(MotionEvent):
            def __init__(self, sx, sy):
                super().__init__("Finger", 99, {"sx": sx, "sy": sy}, is_touch=True, type_id="touch")
                self.profile = ["pos"]

            def depack(self, args):
                self.sx, self.sy = args["sx"], args["sy"]
                super().depack(args)

        _touch_class = Finger
    return _touch_class


def tap(widget):
    from kivy.base import EventLoop

    win = EventLoop.window
    x, y = widget.to_window(*widget.center)
    touch = finger()(x / (win.width - 1.0), y / (win.height - 1.0))
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


def drag(widget, dy, steps=3, fx=0.5, hold=0):
    """A finger put on ``widget`` (``fx`` of its width from the left, halfway up), moved up by
    ``dy`` pixels (down when negative) one frame at a time, held still for ``hold`` frames, and
    lifted: a flick without the hold. ScrollView takes it for a drag only if it moves 20 px within
    its first few frames: slower, it is a press on what is below the finger."""
    from kivy.base import EventLoop

    win = EventLoop.window
    x, y = widget.to_window(widget.x + widget.width * fx, widget.center_y)
    touch = finger()(x / (win.width - 1.0), y / (win.height - 1.0))
    EventLoop.post_dispatch_input("begin", touch)
    yield
    for k in range(1, steps + 1):
        touch.move({"sx": x / (win.width - 1.0), "sy": (y + dy * k / steps) / (win.height - 1.0)})
        EventLoop.post_dispatch_input("update", touch)
        yield
    for _ in range(hold):
        touch.move({"sx": touch.sx, "sy": touch.sy})
        EventLoop.post_dispatch_input("update", touch)
        yield
    EventLoop.post_dispatch_input("end", touch)


def settle(n=3):
    """Let Kivy run a few frames (layout, transitions, Clock callbacks)."""
    for _ in range(n):
        yield


def shot(app, out, name):
    """A screenshot of what is on the window now (modal views included)."""
    from kivy.core.window import Window

    path = out / f"{name}.png"
    if path.exists():
        path.unlink()
    Window.screenshot(name=str(path))
    # Kivy numbers screenshot names when the name has no "{}"; keep ours exact.
    made = sorted(out.glob(f"{name}*.png"), key=lambda p: p.stat().st_mtime)
    if made and made[-1] != path:
        made[-1].rename(path)
    return path


def on(app, *names):
    """The screen is shown and its transition is over (ScreenManager ignores touches meanwhile)."""
    return app.sm.current in names and not app.sm.transition.is_active


def wait_for(cond, what, limit=600):
    for _ in range(limit):
        if cond():
            return
        yield
    raise AssertionError(f"timed out waiting for {what}")


def check_labels_fit(app, where):
    """No label text may be cut by its own box at this window size unless it is meant to shorten."""
    from kivy.uix.label import Label

    bad = []
    for w in widgets(app.sm.current_screen):
        if isinstance(w, Label) and w.text and w.opacity > 0 and w.width > 0 and w.height > 0:
            tw, th = w.texture_size
            if not w.shorten and w.text_size[0] is None and tw > w.width + 2:
                bad.append(f"{w.text[:30]!r} is {tw:.0f}px wide in {w.width:.0f}px")
            if not w.shorten and w.text_size[1] is not None and th > w.height + 2 \
                    and not w.max_lines:
                bad.append(f"{w.text[:30]!r} is {th:.0f}px tall in {w.height:.0f}px")
            if w.font_size < 13:
                bad.append(f"{w.text[:30]!r} has a {w.font_size:.0f}px font")
    assert not bad, f"{where}: " + "; ".join(bad)


def check_nothing_shortened(app, where):
    """Labels that may shorten must not actually lose text here (the end screen's breakdown lines
    must read in full at 800x480)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    cut = []
    for w in widgets(app.sm.current_screen):
        if isinstance(w, Label) and w.shorten and w.text and w.opacity > 0:
            room = w.text_size[0] if w.text_size[0] is not None else w.width
            full = CoreLabel(text=w.text, font_size=w.font_size, bold=w.bold)
            full.refresh()
            if full.texture.size[0] > room + 2:
                cut.append(f"{w.text[:40]!r} needs {full.texture.size[0]}px, has {room:.0f}px")
    assert not cut, f"{where}: text cut short: " + "; ".join(cut)


def start_game(app, args, out, tag, snap=True):
    yield from wait_for(lambda: on(app, "home"), "home")
    yield from settle()
    if snap:
        check_labels_fit(app, "home")
        shot(app, out, f"{tag}-01-home")
    from rules import registry

    title = registry.GAMES[args.game][2] if args.game in registry.GAMES else args.game
    tap(find(app, title))
    yield from wait_for(lambda: on(app, "players"), "players screen")
    yield from settle(8)
    if snap:
        check_labels_fit(app, "players")
        shot(app, out, f"{tag}-02-players")
    tap(find(app, "Start the game"))
    yield from wait_for(lambda: on(app, "setup"), "setup screen")
    yield from settle(8)
    yield from setup_steps(app, out, tag, snap)
    yield from wait_for(lambda: on(app, "game"), "game screen")
    yield from settle(10)


def setup_steps(app, out, tag, snap):
    """The guided set-up: one step at a time, "Step n of m", Back and Next by touch, each step
    readable at the window size and naming its players."""
    from kivy.uix.label import Label

    screen = app.sm.current_screen
    guide = screen.guide
    total = len(guide.steps)

    def shown():
        return [w.text for w in widgets(screen) if isinstance(w, Label) and w.opacity > 0]

    assert f"Step 1 of {total}" in shown() and guide.steps[0].text in shown()
    if total > 1:
        tap(find(app, "Next"))
        yield from settle(2)
        assert f"Step 2 of {total}" in shown() and guide.steps[1].text in shown(), shown()
        tap(find(app, "Back"))
        yield from settle(2)
        assert f"Step 1 of {total}" in shown() and guide.steps[0].text in shown(), shown()
    for i, step in enumerate(guide.steps):
        assert guide.index == i and step.text in shown() and step.title in shown()
        for name in step.players:
            assert name in [t.rstrip(" >") for t in shown()], f"{step.title}: {name} is not named on screen"
        if snap:
            check_labels_fit(app, f"setup step {i + 1}")
            check_nothing_shortened(app, f"setup step {i + 1}")
            shot(app, out, f"{tag}-03-setup" + (f"-{i + 1}" if i else ""))
        tap(find(app, "Play!" if i == total - 1 else "Next"))
        yield from settle(2)
    assert app.sm.current != "setup" or app.sm.transition.is_active


# ---------------------------------------------------------------------- scripts
def whole_game(app, args, out, tag):
    yield from start_game(app, args, out, tag)
    vm = app.vm
    # The first look at the table (the starting layout) runs off the UI thread with progress.
    yield from wait_for(lambda: vm.busy or vm.scans, "the starting scan", limit=100_000)
    if vm.busy:
        shot(app, out, f"{tag}-04a-reading")
    yield from wait_for(lambda: vm.scans >= 1 and not vm.busy, "the starting scan", limit=100_000)
    yield from settle(4)
    check_labels_fit(app, "game")
    shot(app, out, f"{tag}-04-game")
    # End turn with the replay camera: a real scan off the UI thread, progress shown.
    if not vm.waiting_for_table and not vm.over:
        tap(find(app, "End turn"))
        yield from settle(2)
        yield from wait_for(lambda: not vm.busy, "the end-of-turn scan", limit=100_000)
        yield from settle(4)
        shot(app, out, f"{tag}-05-after-scan")
    # Hand entry: the first legal action.
    if not vm.over:
        if vm.waiting_for_table:
            tap(find(app, "App draws"))
            yield from settle(2)
        before = len(vm.session.game.actions)
        tap(find(app, "Enter play"))
        yield from wait_for(lambda: on(app, "entry"), "entry screen")
        yield from settle(8)
        check_labels_fit(app, "entry")
        shot(app, out, f"{tag}-06-entry")
        items = [w for w in widgets(app.sm.current_screen) if type(w).__name__ == "EntryItem"]
        assert items, "the entry screen lists no action"
        tap(sorted(items, key=lambda w: -w.y)[0])
        yield from wait_for(lambda: on(app, "game", "end"), "back to the game")
        yield from settle(4)
        assert len(vm.session.game.actions) > before, vm.message
    # Rules reference.
    if app.sm.current == "game":
        tap(find(app, "Rules"))
        yield from wait_for(lambda: on(app, "rules"), "rules screen")
        yield from settle(6)
        shot(app, out, f"{tag}-07-rules")
        tap(find(app, "Back"))
        yield from wait_for(lambda: on(app, "game"), "game screen")
        # Seen once a game: let go once left (companion.ui.lazy), not kept drawing every move.
        yield from wait_for(lambda: "rules" not in app.sm.built, "the rules screen to be let go", limit=50)
    # Undo a move, if the engine allows it here.
    if vm.can_undo:
        n = len(vm.session.game.actions)
        tap(find(app, "Undo"))
        yield from settle(2)
        assert len(vm.session.game.actions) == n - 1
    # The menu, opened and closed (leaving needs a confirmation).
    tap(find(app, "Menu"))
    yield from settle(6)
    shot(app, out, f"{tag}-08-menu")
    tap(find(app, "Leave the app", screen=False))
    yield from settle(2)
    assert app.sm.current == "game"  # not left: a confirmation is asked first
    tap(find(app, "No", screen=False))
    yield from settle(1)
    tap(find(app, "Close", screen=False))
    yield from settle(4)
    # The menu fades out over a few frames; on a loaded machine a tap meant for the game screen
    # could land on it meanwhile, so wait until it has left the window.
    yield from wait_for(lambda: not popups_open(app), "the menu to close", limit=2000)
    # Big Sur, Roundabout, Monster Highway: whole turns through End turn, the plays laid on a
    # rendered table of the scripted game and read by the real recogniser.
    from companion.session.demo import scripted_table_games, table_kinds

    if args.game in scripted_table_games() and table_kinds(args.game):
        kinds = table_kinds(args.game)
        read = 0
        for _turn in range(16):
            if vm.over or read >= 2:
                break
            plays = sum(1 for a in vm.session.game.actions if a.kind in kinds)
            tap(find(app, "End turn"))
            yield from settle(2)
            yield from wait_for(lambda: not vm.busy, "a scripted turn read by the camera", limit=200_000)
            yield from settle(6)
            yield from wait_for(lambda: not vm.busy, "a scripted turn read by the camera", limit=200_000)
            if sum(1 for a in vm.session.game.actions if a.kind in kinds) > plays:
                read += 1
                if read == 1:
                    shot(app, out, f"{tag}-05b-play-read")
        assert read >= 1, f"no play was read from the table: {vm.message}"
    # The rest of the game: scripted moves through the Next move / App draws buttons.
    moves = 0
    midgame_shot = False
    byways_seen = False
    while not vm.over:
        if app.sm.current != "game":
            raise AssertionError(f"left the game screen for {app.sm.current}: {vm.message}")
        name = "App draws" if vm.waiting_for_table else "Next move"
        before = len(vm.session.game.actions)
        tap(find(app, name))
        yield
        if len(vm.session.game.actions) == before and not vm.over:
            raise AssertionError(f"{name} did nothing: {vm.message} (busy={vm.busy}, screen={app.sm.current}, script={app.demo_script.next_action(vm.session.game) if app.demo_script else None})")
        moves += 1
        if moves == 12 and not midgame_shot:
            yield from settle(3)
            check_labels_fit(app, "game mid-game")
            shot(app, out, f"{tag}-09-midgame")
            midgame_shot = True
        if moves > args.max_moves:
            raise AssertionError(f"no end after {moves} moves")
        if not byways_seen and not vm.over and any(c.driven for c in vm.byways):
            yield from byway_checklists(app, out, tag)
            byways_seen = True
    if args.game == "highwaysbyways":
        assert byways_seen, "the byway checklists were never shown with a byway driven"
    yield from wait_for(lambda: on(app, "end"), "end screen", limit=200)
    yield from settle(8)
    check_labels_fit(app, "end")
    check_nothing_shortened(app, "end")
    shot(app, out, f"{tag}-10-end")
    tap(find(app, "Confirm the result"))
    yield from wait_for(lambda: on(app, "history"), "history screen")
    yield from settle(8)
    shot(app, out, f"{tag}-11-history")
    tap(find(app, "Export all plays (CSV and BG Stats JSON)"))
    yield from settle(2)
    exports = list((Path(args.data) / "exports").glob("bgstats-*.json"))
    assert exports and json.loads(exports[0].read_text())[0]["game"]["sourceGameId"] == args.game
    finished = app.store.finished_games()
    assert len(finished) == 1 and finished[0].record["game"] == args.game
    print(json.dumps({"moves": moves, "actions": len(finished[0].record["actions"])}), flush=True)
    if os.environ.get("COMPANION_BENCH_MEMORY"):
        status = Path("/proc/self/status").read_text()
        kb = {k: int(v.split()[0]) for k, v in (ln.split(":", 1) for ln in status.splitlines())
              if k in ("VmRSS", "VmHWM")}
        print(json.dumps({"rss_mb": kb["VmRSS"] / 1024, "hwm_mb": kb["VmHWM"] / 1024}), flush=True)
    tap(find(app, "Home"))
    yield from wait_for(lambda: on(app, "home"), "home")


def byway_checklists(app, out, tag):
    """Highways & Byways: the Byways button shows every player's byways with their progress."""
    from kivy.uix.label import Label

    vm = app.vm
    yield from settle(3)
    tap(find(app, "Byways"))
    yield from wait_for(lambda: on(app, "byways"), "byways screen")
    yield from settle(8)
    texts = [w.text for w in widgets(app.sm.current_screen) if isinstance(w, Label)]
    for checklist in vm.byways:
        assert any(checklist.summary in t for t in texts), f"no heading for {checklist.player}: {texts[:8]}"
        for entry in checklist.entries:
            assert entry.label in texts, f"{entry.label!r} is not listed"
    assert "driven" in texts and ("to drive" in texts or any(t.startswith("driving:") for t in texts))
    check_labels_fit(app, "byways")
    check_nothing_shortened(app, "byways")
    shot(app, out, f"{tag}-09b-byways")
    tap(find(app, "Back"))
    yield from wait_for(lambda: on(app, "game"), "game screen")
    yield from settle(3)


def saving_paused(app, args, out, tag):
    """The disk refuses writes mid-game: a banner says saving is paused; it goes once written."""
    from kivy.uix.label import Label

    from companion.recovery import writes_refused
    from companion.session import SAVING_PAUSED

    yield from start_game(app, args, out, tag, snap=False)
    vm = app.vm

    def banner():
        return [w for w in widgets(app.sm.current_screen) if isinstance(w, Label)
                and w.text.startswith(SAVING_PAUSED) and w.opacity > 0 and w.height > 0]

    yield from wait_for(lambda: not vm.busy, "the starting look at the table", limit=100_000)
    yield from settle(2)
    assert not banner()
    refusing = writes_refused(app.store, "read-only")
    refusing.__enter__()
    try:
        before = len(vm.session.game.actions)
        tap(find(app, "App draws" if vm.waiting_for_table else "Next move"))
        yield from settle(6)
        assert len(vm.session.game.actions) > before, vm.message
        assert banner(), f"no saving-paused banner: {vm.storage_text!r}"
        check_labels_fit(app, "game, saving paused")
        shot(app, out, f"{tag}-13-saving-paused")
    finally:
        refusing.__exit__(None, None, None)
    vm.retry_saving()
    yield from settle(4)
    assert not banner(), "the banner stayed after the changes were written"
    assert app.store.load(vm.session.id).actions == vm.session.game.actions


def start_and_play(app, args, out, tag):
    yield from start_game(app, args, out, tag, snap=False)
    vm = app.vm
    yield from wait_for(lambda: vm.scans >= 1 and not vm.busy, "the starting scan", limit=100_000)
    print(json.dumps({"game": vm.session.id, "actions": [a.to_json() for a in vm.session.game.actions]}),
          flush=True)
    for _ in range(args.max_moves):
        if vm.over:
            break
        name = "App draws" if vm.waiting_for_table else "Next move"
        tap(find(app, name))
        yield
        print(json.dumps({"game": vm.session.id,
                          "actions": [a.to_json() for a in vm.session.game.actions]}), flush=True)


def _full_players_screen(app, args):
    """From home, the game's players screen with as many players as the game takes; returns it."""
    from rules import registry

    yield from wait_for(lambda: on(app, "home"), "home")
    yield from settle(3)
    tap(find(app, registry.GAMES[args.game][2]))
    yield from wait_for(lambda: on(app, "players"), "players screen")
    yield from settle(8)
    screen = app.sm.current_screen
    while screen.count < screen.max:
        tap(find(app, "+"))
        yield from settle(2)
    yield from settle(4)
    return screen


def names(app, args, out, tag):
    """Player names typed on the players screen. On the kiosk (--kiosk) by touching the keys of
    the on-screen keyboard: it comes up fully on screen, the field typed into stays in sight above
    it, Done closes it. On a desktop (the demo) on the desktop's keyboard, with no on-screen one."""
    screen = yield from _full_players_screen(app, args)
    # The lowest name field in sight (more may be scrolled below): the one a keyboard coming up
    # along the bottom would hide.
    seen = window_rect(screen.ids.scroll)
    i = max(k for k, f in enumerate(screen.fields) if inside(window_rect(f), seen))
    assert i >= 2, f"only {i + 1} of {args.game}'s name fields are in sight"
    field = screen.fields[i]
    # A tap as a finger makes it, down and up at once: the rows' ScrollView passes it on to the field.
    tap(field)
    yield from wait_for(lambda: field.focus, "the tapped name field to take the focus", limit=100)
    if app.touch_keyboard:
        yield from keyboard_typing(app, screen, field, i, out, tag)
    else:
        yield from desktop_typing(app, screen, field, i, out, tag)
    tap(find(app, "Start the game"))
    yield from wait_for(lambda: on(app, "setup"), "setup screen")
    seats = [s.name for s in app.vm.session.seats]
    assert seats[i] == "Zoe", seats
    stored = app.store.load(app.vm.session.id).players
    assert stored[i] == "Zoe", stored
    print(json.dumps({"players": seats}), flush=True)


def inside(rect, box, slack=1):
    """rect (x, y, right, top) lies within box, in window coordinates."""
    return (rect[0] >= box[0] - slack and rect[1] >= box[1] - slack and rect[2] <= box[2] + slack
            and rect[3] <= box[3] + slack)


def window_rect(widget):
    x, y = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return (x, y, right, top)


def check_keyboard_shown(app, screen, field, where):
    """The keyboard lies wholly on the window, every key with its label inside it, and the field
    typed into is in sight: inside the rows' visible area and above the keyboard."""
    from kivy.core.window import Window

    keys = screen.ids.keyboard
    win = (0, 0, Window.width, Window.height)
    board = window_rect(keys)
    assert keys.opacity == 1 and not keys.disabled and keys.target is field, where
    assert inside(board, win), f"{where}: keyboard {board} is not all on the {Window.size} window"
    for name, key in keys.keys.items():
        r = window_rect(key)
        assert inside(r, board) and r[2] - r[0] > 20 and r[3] - r[1] > 20, f"{where}: key {name!r} at {r}"
        tw, th = key.texture_size
        assert tw <= key.width and th <= key.height, f"{where}: key {name!r} label {key.texture_size} in {key.size}"
    seen = window_rect(screen.ids.scroll)
    f = window_rect(field)
    assert inside(f, seen), f"{where}: the field {f} is scrolled out of the rows' view {seen}"
    assert f[1] >= board[3] - 1, f"{where}: the field {f} is behind the keyboard {board}"


def keyboard_typing(app, screen, field, i, out, tag):
    keys = screen.ids.keyboard
    yield from wait_for(lambda: screen.typing and keys.height > 0, "the on-screen keyboard", limit=100)
    yield from settle(6)
    check_keyboard_shown(app, screen, field, "keyboard open on the lowest name")
    shot(app, out, f"{tag}-02k-keyboard")

    def press(key):
        tap(keys.keys[key])  # a touch on the key's middle, down and up
        return settle(2)

    yield from press("clear")
    assert field.text == "" and screen.names[i] == "", field.text
    for key in ["z", "o", "e", "space", "2"]:
        yield from press(key)
    assert field.text == "Zoe 2", f"typed {field.text!r}"  # a capital starts the name by itself
    assert field.focus and screen.typing, "a key press took the focus from the field"
    yield from settle(2)
    check_keyboard_shown(app, screen, field, "while typing")
    shot(app, out, f"{tag}-02l-keyboard-typed")
    yield from press("backspace")
    yield from press("backspace")
    assert not keys.shift  # mid-word: small letters
    yield from press("shift")  # a capital for one letter only
    yield from press("x")
    assert field.text == "ZoeX" and not keys.shift, field.text
    yield from press("backspace")
    assert field.text == "Zoe" and screen.names[i] == "Zoe", (field.text, screen.names[i])
    # Another name in sight tapped while typing: the keyboard stays and types there.
    other = screen.fields[i - 1]
    assert inside(window_rect(other), window_rect(screen.ids.scroll)), "the name above is out of sight"
    tap(other)
    yield from wait_for(lambda: other.focus, "the name above to take the focus", limit=100)
    yield from settle(4)
    assert screen.typing and keys.target is other and not field.focus
    check_keyboard_shown(app, screen, other, "keyboard moved to the name above")
    yield from press("backspace")
    assert other.text == screen.names[i - 1] and len(other.text) > 0 and field.text == "Zoe"
    yield from press("done")
    yield from wait_for(lambda: not screen.typing, "Done to close the keyboard", limit=100)
    yield from settle(6)
    assert not other.focus and keys.height == 0 and keys.disabled
    rows = window_rect(screen.ids.rows)
    assert rows[3] >= window_rect(screen.ids.scroll)[3] - 1, "the rows float below a gap after typing"
    assert screen.names[i] == "Zoe"
    shot(app, out, f"{tag}-02m-keyboard-done")


def every_row(app, args, out, tag):
    """The largest group on the kiosk: every name can be typed in above the on-screen keyboard.
    The last name is tapped right after a flick of the list (as someone does who flicks to find
    it), while the list still springs back; then the list is dragged back row by row to the first
    name, each tapped in turn, and Done gives the screen its layout back."""
    assert app.touch_keyboard, "the rows script is for the kiosk (--kiosk)"
    screen = yield from _full_players_screen(app, args)
    scroll, keys, u = screen.ids.scroll, screen.ids.keyboard, app.u
    effect = scroll.effect_y
    at_rest = lambda: effect.velocity == 0 and effect.overscroll == 0  # noqa: E731
    last = screen.fields[-1]
    yield from drag(scroll, u * 100, fx=0.2)
    x, y = last.to_window(*last.center)
    assert inside((x, y, x, y), window_rect(scroll)), f"the last name {window_rect(last)} is not in sight to tap"
    tap(last)
    yield from wait_for(lambda: last.focus and screen.typing and keys.height > 0, "the keyboard for the last name",
                        limit=100)
    yield from wait_for(at_rest, "the list to come to rest")
    yield from settle(6)
    check_keyboard_shown(app, screen, last, f"the last of {screen.count} names tapped after a flick")
    shot(app, out, f"{tag}-02n-keyboard-last-row")
    for k in range(screen.count - 2, -1, -1):
        field = screen.fields[k]
        for _ in range(12):  # a drag of less than a row, towards the name, held still before it ends
            rect, view = window_rect(field), window_rect(scroll)
            # In sight to be tapped: the list comes to rest to within a few pixels of its ends.
            if inside(rect, view, slack=field.height / 4):
                break
            yield from drag(scroll, u * 40 * (1 if rect[1] < view[1] else -1), fx=0.2, hold=15)
            yield from wait_for(at_rest, "the list to come to rest")
            yield from settle(2)
        assert screen.typing, f"dragging the list closed the keyboard (looking for name {k + 1})"
        assert inside(window_rect(field), window_rect(scroll), slack=field.height / 4), \
            f"name {k + 1} {window_rect(field)} cannot be scrolled into the rows' view {window_rect(scroll)}"
        tap(field)
        yield from wait_for(lambda f=field: f.focus, f"name {k + 1} to take the focus", limit=100)
        yield from wait_for(at_rest, "the list to come to rest")
        yield from settle(4)
        check_keyboard_shown(app, screen, field, f"name {k + 1} of {screen.count} tapped while typing")
    shot(app, out, f"{tag}-02o-keyboard-first-row")
    tap(keys.keys["done"])
    yield from wait_for(lambda: not screen.typing, "Done to close the keyboard", limit=100)
    yield from settle(6)
    assert keys.height == 0 and keys.disabled
    view = window_rect(scroll)
    assert window_rect(screen.ids.rows)[3] >= view[3] - 1, "the rows float below a gap after typing"
    from kivy.core.window import Window

    for text in ("Back", "Start the game"):
        assert inside(window_rect(find(app, text)), (0, 0, Window.width, Window.height)), f"{text!r} is off screen"
    shot(app, out, f"{tag}-02p-keyboard-closed")
    print(json.dumps({"players": screen.count}), flush=True)


def desktop_typing(app, screen, field, i, out, tag):
    """The demo on a desktop: the physical keyboard types; no on-screen keyboard covers the rows."""
    from kivy.core.window import Window

    def key(code, text=None):
        Window.dispatch("on_key_down", code, 0, chr(code), [])
        if text:
            Window.dispatch("on_textinput", text)
        Window.dispatch("on_key_up", code, 0)

    yield from settle(4)
    assert not screen.typing and screen.ids.keyboard.height == 0, "an on-screen keyboard came up on a desktop"
    field.cursor = (len(field.text), 0)
    for _ in range(len(field.text)):
        key(8)  # backspace
        yield
    assert field.text == "", field.text
    for ch in "Zoe":
        key(ord(ch.lower()), ch)
        yield
    assert field.text == "Zoe" and screen.names[i] == "Zoe", field.text
    key(13)  # Enter: the name is done
    yield from settle(2)
    assert not field.focus, "Enter left the name field focused"
    assert app.sm.current == "players"


def resume(app, args, out, tag):
    yield from wait_for(lambda: on(app, "home"), "home")
    yield from settle(6)
    shot(app, out, f"{tag}-12-home-resume")
    resume_buttons = [w for w in widgets(app.sm.current_screen)
                      if type(w).__name__ == "BigButton" and w.text.startswith("Resume ")]
    assert resume_buttons, "no game is offered for resume"
    tap(resume_buttons[0])
    yield from wait_for(lambda: on(app, "game", "end"), "the resumed game")
    yield from settle(6)
    print(json.dumps({"game": app.vm.session.id,
                      "actions": [a.to_json() for a in app.vm.session.game.actions]}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
