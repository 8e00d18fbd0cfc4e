"""Keys handled one at a time, in the order they were typed.

Textual hands a key to the focused widget by posting it to that widget's queue, and goes straight on to
the next key. A key the widget does not take itself (ctrl+u, backspace and the arrows in a field; tab;
ctrl+e or p on the map or the level list) bubbles up to the app a queue at a time, and the app runs its
binding then: after the keys typed behind it have been handed over already (Textual issue #6605). Keys
that arrive together (one read of the terminal: a paste, ``tmux send-keys``, fast typing on a loaded
machine) were handled out of order. In the campaign metadata form, ``end ctrl+u Hello Burst`` in one read
ran ctrl+u after ``Hello B`` was typed and deleted it; ``ctrl+e Hello`` on the map sent ``Hello`` to the
map, before the form was there.

:class:`KeysInOrder` holds each key (and each paste) until the one before it has been handled all the
way: taken by a widget, or bubbled up to the app and its binding run; the screen that binding opened
mounted with its focus set; and the messages it set going handled (enter in a form's field posts the
message that closes the form). The next key then goes to whatever has the focus by then, as it would
have had it been typed slowly. A burst costs what the same keys cost typed at a person's pace
(``benchmarks/bench_key_bursts.py``). A mouse button pressed or let go while keys are on their way waits
behind them too (a click after ``abc`` lands after ``c``, as Textual's own order has it); with no key on
its way the mouse goes straight on, and moves and scrolls are never held.
"""

from __future__ import annotations

import asyncio
from collections import deque
from time import monotonic

from textual import events
from textual.app import App
from textual.dom import DOMNode

# A key whose way cannot be followed to its end (a widget removed while the key was in its queue: the widget's
# queue, and the note that follows the key there, are gone) lets the keys behind it go on as Textual would send
# them. Whether it is stuck is looked at this often; a key merely slow (a loaded machine, a screen mounting)
# is never let go: under load the next key reached the map before the form it was typed for, and was lost.
STUCK_SECONDS = 1.0
# A key waiting on a widget that is there and running but never gets to it (a handler awaiting forever): the
# keys behind it go on after this long, so the keyboard never hangs. Not reached in the editor or the player.
HUNG_SECONDS = 30.0
QUIET_POLL_SECONDS = 0.001  # how often a key waits for the app to be done with the one before
# A key handled waits for every queue to be empty (what it set going is done) at most this long: a widget that
# keeps its own queue busy (one polling a job by posting to itself) holds the keys behind no longer than this.
QUIET_SECONDS = 5.0
# Mouse buttons keep their place behind keys typed before them (a Click is made by the app from its MouseUp).
_BUTTONS = (events.MouseDown, events.MouseUp)


class KeysInOrder(App):
    """An app whose keys and pastes are handled one after the other (see the module)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._key_on_its_way: events.Event | None = None
        self._key_since = 0.0  # when the key on its way reached the app (its time to be handled starts then)
        self._key_taken = False  # the key on its way reached the app (one re-posted may still be in its queue)
        self._key_at: DOMNode | None = None  # whose queue holds the note that follows the key on its way
        self._keys_held: deque[events.Event] = deque()
        self._quiet_for: events.Event | None = None  # the key handled, waiting for the app to be quiet,
        self._quiet_since = 0.0  # since then

    async def on_event(self, event: events.Event) -> None:
        button = isinstance(event, _BUTTONS)
        if not (button or isinstance(event, (events.Key, events.Paste))) or event.is_forwarded or (
                button and self._key_on_its_way is None and not self._keys_held):
            # everything else, an event coming back up to the app, and the mouse with no key on its way
            await super().on_event(event)
            return
        if not self.screen_stack:
            self._key_on_its_way = None
            return  # the app is closing: nothing to type into
        if self._key_on_its_way is not None and event is not self._key_on_its_way:
            if not self._keys_held:
                self.set_timer(STUCK_SECONDS, self._unstick)
            self._keys_held.append(event)
            return
        self._key_on_its_way, self._key_since, self._key_taken = event, monotonic(), True
        if button:  # the app forwards it to the widget under the mouse: on once that (and all it set going) is done
            await super().on_event(event)
            self.call_later(self._when_quiet, event)
            return
        target = self.focused or self.screen  # where Textual sends it, unless a priority binding takes it
        await super().on_event(event)
        self._follow(event, target if event.is_forwarded else self)

    @property
    def keys_on_their_way(self) -> bool:
        """Keys typed are still being handled (one on its way, others held behind it)."""
        return self._key_on_its_way is not None or bool(self._keys_held)

    def _follow(self, event: events.Event, node: DOMNode) -> None:
        """Once ``node`` has handled the key (the key is ahead in its queue), follow it to the parent it
        may have bubbled to, up to the app."""
        if node.call_later(self._handled_at, event, node):
            self._key_at = node
        elif node is not self:
            self._follow(event, self)

    def _handled_at(self, event: events.Event, node: DOMNode) -> None:
        if event is not self._key_on_its_way:
            return  # let go already (_unstick)
        # Textual keeps "stopped" private: a stopped key went no further up, but for a screen's, whose
        # parent (the app) posted it and gets it stopped
        if node is self or (event._stop_propagation and node.parent is not self):
            # its binding has run, or a widget took it (a character typed into a field) and it went no
            # further up; a screen it pushed mounts (and sets its focus) before the next key
            screen = self.screen
            if screen.call_later(self._when_quiet, event):
                self._key_at = screen
            else:
                self._when_quiet(event)
        else:
            # on to its parent (a screen's parent is the app, which the key may reach stopped)
            self._follow(event, node.parent or self)

    def _when_quiet(self, event: events.Event) -> None:
        """The next key once what this one set going is handled too: enter in a form's field posts a
        message that closes the form, and the key after it is for the screen below."""
        if event is not self._key_on_its_way:
            return
        self._key_at = None  # polled from the loop from now on: never lost
        if self._quiet_for is not event:
            self._quiet_for, self._quiet_since = event, monotonic()
        nodes = (node for screen in self.screen_stack for node in screen.walk_children(with_self=True))
        if any(node.message_queue_size for node in nodes) and monotonic() - self._quiet_since < QUIET_SECONDS:
            asyncio.get_running_loop().call_later(QUIET_POLL_SECONDS, self._when_quiet, event)
        else:
            self._next_key(event)

    def _next_key(self, event: events.Event) -> None:
        if event is not self._key_on_its_way:
            return
        self._key_on_its_way, self._key_at = None, None
        if self._keys_held:
            self._key_on_its_way, self._key_since, self._key_taken = self._keys_held.popleft(), monotonic(), False
            self.post_message(self._key_on_its_way)  # behind the focus a new screen asked for

    def _unstick(self) -> None:
        if not self._keys_held or self._key_on_its_way is None:
            return
        # Only a key the app has taken is let go: one still in the app's queue (a busy app) keeps its place; and
        # only when the widget whose queue holds its note is gone (removed, its queue closed), not for being slow.
        waited = monotonic() - self._key_since
        at = self._key_at
        gone = at is not None and at is not self and not (at.is_running and at.is_attached)
        if self._key_taken and waited >= STUCK_SECONDS and (gone or waited >= HUNG_SECONDS):
            self._next_key(self._key_on_its_way)
        self.set_timer(STUCK_SECONDS, self._unstick)
