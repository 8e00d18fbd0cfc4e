"""Modal dialogs: questions, file paths, forms for metadata and level properties, help."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, OptionList
from textual.widgets.option_list import Option


class ConfirmScreen(ModalScreen[str]):
    """A question with a few answers; escape answers ``"cancel"``."""

    BINDINGS = [Binding("escape", "dismiss('cancel')", "Cancel")]

    def __init__(self, question: str, answers: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.question = question
        self.answers = answers  # (label, value, variant)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(escape(self.question), classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                for label, value, variant in self.answers:
                    yield Button(label, id=f"answer-{value}", variant=variant)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "").removeprefix("answer-"))


class PathScreen(ModalScreen[Path | None]):
    """Ask for a file path (open, save as)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, initial: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.initial = initial

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-text")
            yield Input(self.initial, id="path-input", placeholder="path/to/campaign.json")
            yield Label("[dim]enter: ok   escape: cancel[/]")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(Path(value).expanduser() if value else None)


class FormScreen(ModalScreen[dict | None]):
    """A few labelled text fields; returns their values by name, or None when cancelled."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), Binding("ctrl+s", "ok", "OK")]

    def __init__(self, title: str, fields: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.fields = fields  # (name, label, value)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(self.title_text, classes="dialog-text")
            with VerticalScroll():
                for name, label, value in self.fields:
                    yield Label(label, classes="field-label")
                    yield Input(value, id=f"form-{name}")
            with Horizontal(classes="dialog-buttons"):
                yield Button("OK", id="form-ok", variant="primary")
                yield Button("Cancel", id="form-cancel")

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def action_ok(self) -> None:
        self.dismiss({name: self.query_one(f"#form-{name}", Input).value for name, _, _ in self.fields})

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_ok()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-ok":
            self.action_ok()
        else:
            self.dismiss(None)


class ChoiceScreen(ModalScreen[str | None]):
    """Pick one of a list (templates)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices  # (value, label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-text")
            yield OptionList(*(Option(label, id=value) for value, label in self.choices), id="choice-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss(None)", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Markdown(self.text)
