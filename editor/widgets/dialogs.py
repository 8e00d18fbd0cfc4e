"""Modal dialogs: questions, file paths and the file picker, forms, help."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from rich.text import Text

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, DirectoryTree, Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from cardrogue.editor.shown import StoryMarkdown, content, markup, text
from cardrogue.engine.format.files import is_campaign_name
from cardrogue.editor.widgets.footer import EditorFooter


class DialogButtons(Horizontal):
    """A dialog's row of buttons: left and right move the focus from one button to the next (Textual's
    buttons move it only with tab), stopping at the row's ends."""

    BINDINGS = [Binding("left", "step(-1)", "Previous button", show=False),
                Binding("right", "step(1)", "Next button", show=False)]

    def action_step(self, by: int) -> None:
        buttons = [b for b in self.query(Button) if b.focusable]
        focused = self.screen.focused
        if focused in buttons:
            buttons[max(0, min(len(buttons) - 1, buttons.index(focused) + by))].focus()


class ConfirmScreen(ModalScreen[str]):
    """A question with a few answers; escape answers ``"cancel"``."""

    BINDINGS = [Binding("escape", "dismiss('cancel')", "Cancel")]

    def __init__(self, question: str, answers: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.question = question
        self.answers = answers  # (label, value, variant)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(content(self.question), classes="dialog-text")
            with DialogButtons(classes="dialog-buttons"):
                for label, value, variant in self.answers:
                    yield Button(label, id=f"answer-{value}", variant=variant)  # type: ignore[arg-type]
        yield EditorFooter()

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "").removeprefix("answer-"))


class AskScreen(ModalScreen):
    """Ask for one line of text in a dialog: enter answers (:meth:`answer` turns the text into the
    result), escape cancels with None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    FIELD_ID, PLACEHOLDER, HINT = "ask-input", "", "[dim]enter: ok   escape: cancel[/]"

    def __init__(self, title: str, initial: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.initial = initial

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(content(self.title_text), classes="dialog-text")
            yield Input(self.initial, id=self.FIELD_ID, placeholder=self.PLACEHOLDER)
            yield Label(self.HINT, id="ask-hint")
        yield EditorFooter()

    def hold_quit(self) -> bool:
        """Stop the app's quit while a text typed here is not used, as a form does (:meth:`FormScreen.hold_quit`):
        said under the field, which keeps it. False, and nothing said, when the text is as it opened."""
        if self.query_one(f"#{self.FIELD_ID}", Input).value == self.initial:
            return False
        self._say_held("Not quit: the text typed here is not used yet. Enter uses it, escape drops it; then ctrl+q "
                       "quits.")
        return True

    def _say_held(self, text: str) -> None:
        self.query_one("#ask-hint", Label).update(markup("[b red]✗[/] " + text))

    def answer(self, text: str):
        return text

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(self.answer(event.value))


class PathScreen(AskScreen):
    """Ask for a file path (open, save as)."""

    FIELD_ID, PLACEHOLDER = "path-input", "path/to/campaign.json"

    def answer(self, text: str) -> Path | None:
        value = text.strip()
        return Path(value).expanduser() if value else None


@dataclass(frozen=True, slots=True)
class Choice:
    """A form field picked from a list: ``value`` is one of ``options``, or ``""`` for not set
    (a draft's value that is none of them is offered first, marked, until the author chooses).

    Only an ``optional`` field offers "not set"; a required field left blank starts on its prompt,
    so the author has to choose.
    """

    value: str
    options: tuple[str, ...]
    optional: bool = False
    follows: str = ""  # another field of the form: its value picks this list's options from ``options_by``
    options_by: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def options_for(self, picked: str) -> tuple[str, ...]:
        """The options when the field this one follows is ``picked``."""
        return dict(self.options_by).get(picked, ())


FieldValue = str | bool | Choice  # a text field, a flag (a checkbox), a choice


class FormScreen(ModalScreen[dict | None]):
    """A few labelled fields; returns their values by name, or None when cancelled.

    A field's starting value says what it is: a string is a text field, a bool a checkbox and a
    :class:`Choice` a list to pick from. The values come back as strings (``""`` for a choice not
    set) and bools. Enter in a text field, or ctrl+s anywhere, is OK; on a list or a checkbox enter
    and space open the list or tick the box, as Textual's widgets do.

    A choice that ``follows`` another field offers the options its ``options_by`` gives for the
    other field's value, updated as the author changes that value (a goal's target list follows the
    goal's kind).

    With ``validate``, OK first asks it about the values: a refusal it returns, ``(message, fields)``,
    is shown under the first of ``fields`` the form has (under the form when it has none of them)
    and that field gets the focus; the form stays open, so the author can fix it. Editing that field
    takes the refusal away (it was about the old value); the next OK asks again. ``problem``, in the
    same shape, is shown so from the start: what a problem the form opens for says about a field.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), Binding("ctrl+s", "ok", "OK")]

    def __init__(self, title: str, fields: list[tuple[str, str, FieldValue]], *,
                 validate: Callable[[dict], tuple[str, tuple[str, ...]] | None] | None = None, note: str = "",
                 problem: tuple[str, tuple[str, ...]] | None = None,
                 relabel: Callable[[dict], dict[str, str]] | None = None) -> None:
        super().__init__()
        self.relabel = relabel  # the fields' labels for the values chosen so far (F7: what the seed makes the rest)
        self.title_text = title
        self.fields = fields  # (name, label, value)
        self.validate = validate
        self.note = note
        self.problem = problem
        # The values the form opens with, as values() reads them: what differs from them was typed here.
        self.opened_with = {name: value.value if isinstance(value, Choice) else value for name, _, value in fields}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(content(self.title_text), classes="dialog-text")
            if self.note:
                yield Label(content(self.note), classes="dialog-note")
            with VerticalScroll():
                for name, label, value in self.fields:
                    if isinstance(value, bool):
                        yield Checkbox(label, value, id=f"form-{name}", compact=True)
                    else:
                        yield Label(content(label), classes="field-label", id=f"form-label-{name}")
                        if isinstance(value, Choice):
                            options = [(option, option) for option in value.options]
                            if value.value and value.value not in value.options:
                                # A draft's value that is not one of the choices: shown as it is, so OK
                                # without choosing says what is wrong with it instead of changing it.
                                options.insert(0, (content(f"{value.value} (not one of the choices)"), value.value))
                            yield Select(options, id=f"form-{name}",
                                         prompt="not set" if value.optional else "choose one",
                                         allow_blank=value.optional or not value.value or bool(value.follows),
                                         value=value.value or Select.NULL)
                        else:
                            yield Input(value, id=f"form-{name}")
                    yield Label("", id=f"form-error-{name}", classes="form-error")
            yield Label("", id="form-error", classes="form-error")
            if any(not isinstance(value, str) for _, _, value in self.fields):
                yield Label("[dim]tab: next   space: open a list, tick a box   ctrl+s: OK[/]", id="form-keys")
            with DialogButtons(classes="dialog-buttons"):
                yield Button("OK", id="form-ok", variant="primary")
                yield Button("Cancel", id="form-cancel")
        yield EditorFooter()

    def on_mount(self) -> None:
        self.query_one(f"#form-{self.fields[0][0]}").focus()
        if self.problem is not None:  # after the fields' own first Changed, which would take it away
            self.call_after_refresh(self._refuse, *self.problem)

    def _edited(self, name: str) -> None:
        """A refusal shown under a field is about its old value: editing the field takes it away."""
        for label in self.query(f"#form-error-{name}").results(Label):
            label.remove_class("-shown")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._edited((event.input.id or "").removeprefix("form-"))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._edited((event.checkbox.id or "").removeprefix("form-"))

    def on_select_changed(self, event: Select.Changed) -> None:
        changed = (event.select.id or "").removeprefix("form-")
        self._edited(changed)
        if self.relabel is not None:
            for name, text in self.relabel(self.values()).items():
                for label in self.query(f"#form-label-{name}").results(Label):
                    label.update(content(text))
        for name, _, value in self.fields:
            if isinstance(value, Choice) and value.follows == changed:
                field = self.query_one(f"#form-{name}", Select)
                options = value.options_for(str(event.value) if event.value is not Select.NULL else "")
                keep = field.selection if field.selection in options else None
                field.set_options([(option, option) for option in options])
                if keep is not None:
                    field.value = keep
                elif len(options) == 1:
                    field.value = options[0]

    def values(self) -> dict:
        values: dict[str, str | bool] = {}
        for name, _, _ in self.fields:
            field = self.query_one(f"#form-{name}")
            values[name] = (field.selection or "") if isinstance(field, Select) else field.value  # type: ignore[attr-defined]
        return values

    def changed(self) -> bool:
        """Whether a value was typed, ticked or chosen here since the form opened."""
        return self.values() != self.opened_with

    def hold_quit(self) -> bool:
        """Stop the app's quit (ctrl+q, a priority key, reaches it over the form) while values typed here
        are not applied: said under the form, which stays open with them (the quit took them away unasked).
        False, and nothing said, when the form is as it opened."""
        if not self.changed():
            return False
        self._refuse("Not quit: this form's values are not applied yet. Enter or ctrl+s applies them (OK), "
                     "escape drops them; then ctrl+q quits.", ())
        return True

    def action_ok(self) -> None:
        values = self.values()
        refusal = self.validate(values) if self.validate is not None else None
        for label in self.query(".form-error").results(Label):
            label.remove_class("-shown")
        if refusal is None:
            self.dismiss(values)
            return
        self._refuse(*refusal)

    def _refuse(self, message: str, about: tuple[str, ...]) -> None:
        """``message`` under the first of the fields ``about`` names (under the form when none), that field focused."""
        names = [name for name, _, _ in self.fields]
        field = next((f for f in about if f in names), None)
        label = self.query_one(f"#form-error-{field}" if field else "#form-error", Label)
        label.update(markup("[b red]✗[/] $error", error=message))
        label.add_class("-shown")
        if field:
            self.query_one(f"#form-{field}").focus()
        label.scroll_visible(animate=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_ok()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-ok":
            self.action_ok()
        else:
            self.dismiss(None)


class CampaignFiles(DirectoryTree):
    """Folders and campaign files (:func:`~cardrogue.engine.format.files.is_campaign_name`: the files
    ``cardrogue check`` takes from a folder); hidden entries left out."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if is_campaign_name(p.name) or (not p.name.startswith(".") and _is_dir(p))]

    def process_label(self, label) -> Text:
        """A file or folder name as it is written, control characters escaped (``nl\\nx.json``): the
        tree showed a name's first line alone (``nl``), and dropped an escape character unseen."""
        return text(label) if isinstance(label, str) else super().process_label(label)


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


class FileScreen(PathScreen):
    """Pick a campaign file: a folder tree (DirectoryTree) and a path field to type in.

    Choosing a file in the tree puts it in the field (for open, it also opens it); choosing a
    folder keeps the file name and changes the folder. ``ctrl+u``, or the button, goes up one
    folder. ``enter`` in the field accepts it; for open, a folder typed there (the field starts on
    one) is shown in the tree instead, and a path that is not there is refused under the field, so
    neither closes the dialog nor loses what was typed; for save as, so is a folder that is not there.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), Binding("ctrl+u", "up", "Parent folder")]

    def __init__(self, title: str, initial: str = "", *, opening: bool = True,
                 refuse: Callable[[Path], str | None] | None = None) -> None:
        super().__init__(title, initial)
        self.opening = opening
        self.refuse = refuse  # why a path chosen to save is not taken (said under the field), or None
        start = Path(initial).expanduser() if initial else Path.cwd()
        folder = start if initial.endswith("/") or _is_dir(start) else start.parent
        self.root = folder if _is_dir(folder) else Path.cwd()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog files"):
            yield Label(content(self.title_text), classes="dialog-text")
            with Horizontal(classes="file-bar"):
                yield Button("↑ Parent", id="file-up", compact=True)
                yield Label(content(str(self.root)), id="file-root")
            yield CampaignFiles(self.root, id="file-tree")
            yield Input(self.initial, id="path-input", placeholder="path/to/campaign.json")
            yield Label("", id="file-error", classes="form-error")
            yield Label("[dim]enter: ok   tab: tree / path   ctrl+u: parent folder   escape: cancel[/]")
        yield EditorFooter()

    def on_mount(self) -> None:
        self.query_one("#path-input", Input).focus()

    def _reroot(self, folder: Path) -> None:
        self.root = folder
        self.query_one("#file-tree", CampaignFiles).path = folder
        self.query_one("#file-root", Label).update(content(str(folder)))

    def action_up(self) -> None:
        if self.root.parent != self.root:
            self._reroot(self.root.parent)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "file-up":
            event.stop()
            self.action_up()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#file-error", Label).remove_class("-shown")  # the refusal was about the old path

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        event.prevent_default()  # AskScreen's handler would answer (and close) as well
        path = self.answer(event.value)
        if path is not None and not self.opening and self.refuse is not None and (why := self.refuse(path)):
            self._refuse("$path " + why, path=str(path))
            return
        if path is not None and not self.opening and not _is_dir(path):
            folder = path.absolute().parent
            if not folder.exists() or not _is_dir(folder):
                why = "does not exist: create it first, or" if not folder.exists() else "is not a folder:"
                self._refuse(f"the folder $folder {why} choose a folder that is there", folder=str(folder))
                return
        if path is None or not self.opening:
            self.dismiss(path)
        elif _is_dir(path):
            self._reroot(path.absolute())
            event.input.value = f"{path.absolute()}/"
            event.input.action_end()  # a name typed next goes into this folder
        elif not path.exists():
            self._refuse("no such file: $path", path=str(path))
        else:
            self.dismiss(path)

    def _say_held(self, text: str) -> None:
        self._refuse(text)

    def _refuse(self, text: str, **values: str) -> None:
        """Say under the path field why it is not taken; the dialog stays open with what was typed."""
        error = self.query_one("#file-error", Label)
        error.update(markup("[b red]✗[/] " + text, **values))
        error.add_class("-shown")

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        field = self.query_one("#path-input", Input)
        field.value = str(event.path)
        if self.opening:
            self.dismiss(Path(event.path))

    def on_directory_tree_directory_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        field = self.query_one("#path-input", Input)
        current = Path(field.value).name if field.value and not field.value.endswith("/") else ""
        field.value = str(Path(event.path) / current) if current and not self.opening else str(event.path) + "/"


class ChoiceScreen(ModalScreen[str | None]):
    """Pick one of a list (templates)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices  # (value, label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(content(self.title_text), classes="dialog-text")
            yield OptionList(*(Option(content(label), id=value) for value, label in self.choices), id="choice-list")
        yield EditorFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss(None)", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield StoryMarkdown(self.text)
        yield EditorFooter()
