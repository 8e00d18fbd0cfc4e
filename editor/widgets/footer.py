"""The editor's footer: the keys that matter here, F1 Help always first, short enough for 80 columns.

Textual's own footer lists the focused widget's keys, then the app's, and cuts the line at the
right edge, so at 80 columns Help was never seen. This one puts Help first, then the keys of
what has the focus, then the app's, and on a dialog only the dialog's own keys (a form shows
OK and Cancel, not the map's keys behind it). Every other key is on the Help screen and in the
command palette (ctrl+p), which ends the line.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer
# Textual's private module, on purpose: its Footer draws each key as a FooterKey, which Textual does not
# export (textual.widgets lists Footer alone, as of 8.2). Our compose yields the same widget so the keys
# look, click and take the same CSS as Textual's footer; a copy of it here would drift from Textual's.
from textual.widgets._footer import FooterKey

HELP_ACTION = "help"


class EditorFooter(Footer):
    DEFAULT_CSS = """
    EditorFooter FooterKey { margin-right: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, show_command_palette=True, **kwargs)
        self._shown: tuple[tuple, ...] | None = None  # the keys composed (_keys)

    def compose(self) -> ComposeResult:
        self._shown = self._keys()
        for key, display, description, action, disabled, tooltip, classes in self._shown:
            if classes:
                yield FooterKey(key, display, description, action, disabled=disabled, tooltip=tooltip, classes=classes)
            else:
                # born with the class its bound ``compact`` gives it on mount: given then, it restyled each key again
                yield FooterKey(key, display, description, action, disabled=disabled, tooltip=tooltip,
                                classes="-compact" if self.compact else "").data_bind(compact=Footer.compact)

    async def recompose(self) -> None:
        """Mount the keys again only when another set is to be shown: the bindings change with every move
        of the focus and every screen, and most moves keep the same keys (remounting them restyled the
        whole footer each time)."""
        if self.is_attached and self._shown is not None and self._keys() == self._shown:
            return
        await super().recompose()

    def _keys(self) -> tuple[tuple, ...]:
        """What :meth:`compose` shows: each key's (key, display, description, action, disabled, tooltip, classes)."""
        if not self._bindings_ready:
            return ()
        active = self.screen.active_bindings
        on_dialog = isinstance(self.screen, ModalScreen)
        first, focused, app_keys = [], [], []
        seen: set[str] = set()
        for namespace, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen or not self._offered(binding.action):
                continue
            seen.add(binding.action)
            entry = (binding, enabled, tooltip)
            if binding.action == HELP_ACTION:
                first.append(entry)
            elif namespace is self.app:
                if not on_dialog:
                    app_keys.append(entry)
            else:
                focused.append(entry)
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if not (self.app.ENABLE_COMMAND_PALETTE and palette is not None):
            palette = None
        # Nothing is cut at the right edge: the app's keys, then the focused area's last ones, are left
        # out (to the help screen and the palette) until the rest fits beside Commands.
        room = self.app.size.width - (self._width(palette[1], "Commands") + 1 if palette else 0)
        while first + focused + app_keys and sum(self._width(b) for b, _, _ in first + focused + app_keys) > room:
            (app_keys or focused or first).pop()
        keys = [(binding.key, self.app.get_key_display(binding), binding.description, binding.action, not enabled,
                 tooltip or binding.description, "") for binding, enabled, tooltip in first + focused + app_keys]
        if palette is not None:
            _, binding, enabled, _ = palette
            keys.append((binding.key, self.app.get_key_display(binding), "Commands", binding.action, not enabled,
                         "", "-command-palette"))
        return tuple(keys)

    def _offered(self, action: str) -> bool:
        """A key that runs everywhere but is offered where it does something alone (the editor's
        ``in_footer``: t on a ladder); every key of another app is offered."""
        in_footer = getattr(self.app, "in_footer", None)
        return in_footer is None or in_footer(action.removeprefix("app."))

    def _width(self, binding: Binding, description: str | None = None) -> int:
        """The columns a key takes in the compact footer: its key, a space, its description, a margin."""
        return cell_len(self.app.get_key_display(binding)) + 1 + cell_len(description or binding.description) + 1

    def on_resize(self) -> None:
        self.refresh(recompose=True)  # another width: another choice of the keys that fit
