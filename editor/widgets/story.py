"""The story editor: Markdown source for the campaign's story or a level's preface, and its preview."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, TextArea

from cardrogue.editor.messages import StoryEdited
from cardrogue.editor.shown import StoryMarkdown, content
from cardrogue.engine.format.resources import load_schema
from cardrogue.engine.printable import printable
from cardrogue.engine.words import counted

STORY_LIMIT: int = load_schema("campaign.schema.json")["properties"]["story"]["maxLength"]
"""The longest story a campaign may have (CR108): the preview renders no more of a longer one."""

SOURCE_LIMIT: int = 5 * STORY_LIMIT
"""The longest story the source loads whole (0.3 s of CPU at 100,000 characters, about 3 µs each): a
draft's story a little over STORY_LIMIT is there to be cut by hand; a longer one (a hostile or pasted
file: 5 MB took 14 s) shows its first STORY_LIMIT characters, and is kept whole until edited there."""


class StoryEditor(Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.level: int | None = None
        self._shown = False  # show() has filled the source (before it, its empty text is no story)
        self._previewed: str | None = None  # the text the preview renders
        self._part: str | None = None  # the start of a story over SOURCE_LIMIT, all the source holds of it
        self._part_edited = False  # the author has typed in that part: it is the story now

    def compose(self) -> ComposeResult:
        yield Label("", id="story-target")
        yield Label("", id="story-cut")
        with Horizontal():
            yield TextArea(id="story-source", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
            with VerticalScroll(id="story-preview-box"):
                yield StoryMarkdown(id="story-preview")

    def show(self, title: str, level: int | None, text: str) -> None:
        self.level = level
        self._shown = True
        source, cut = self.query_one("#story-source", TextArea), self.query_one("#story-cut", Label)
        cut.display = len(text) > SOURCE_LIMIT
        if len(text) > SOURCE_LIMIT:
            part = text[:STORY_LIMIT]
            cut.update(f"This story has {counted(len(text), 'character')}, over the {STORY_LIMIT:,} limit: only its "
                       f"first {STORY_LIMIT:,} are here. An edit keeps only them; ctrl+z on the map brings the rest back.")
            if self._part != part or source.text != part:
                self._part, self._part_edited = part, False
                source.load_text(part)
        else:
            self._part = None
            if source.text != text:
                source.load_text(text)
        self.query_one("#story-target", Label).update(content(title))
        self._preview(text)

    def _preview(self, text: str) -> None:
        """Render the Markdown when its text changed: the app shows the story again after every edit
        of the campaign, and a preview parsed and laid out anew for each key on the map made a long
        story (a 5 MB one typed by hand, over the limit) hold the editor for a minute a key. A story
        over the limit is previewed up to it (laying out 5 MB took 14 s of CPU)."""
        if text != self._previewed:
            self._previewed = text
            shown = printable(text[:STORY_LIMIT], lines=True)
            if len(text) > STORY_LIMIT:  # a draft's (CR108): kept whole in the source, to be cut there
                shown += (f"\n\n---\n\n*Preview cut: the story is {counted(len(text), 'character')}; "
                          f"the limit is {STORY_LIMIT:,}.*")
            self.query_one("#story-preview", StoryMarkdown).update(shown)

    def typed(self) -> tuple[int | None, str] | None:
        """(the level shown, None for the campaign's story; the source's text as it is now), once shown."""
        if not self._shown or self._only_a_part(self.query_one("#story-source", TextArea).text):
            return None
        return self.level, self.query_one("#story-source", TextArea).text

    def _only_a_part(self, text: str) -> bool:
        """Whether the source holds the unedited start of a longer story (not the story itself)."""
        if self._part is None or self._part_edited:
            return False
        self._part_edited = text != self._part
        return not self._part_edited

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        text = event.text_area.text
        if self._only_a_part(text):
            return  # its load: the story stays whole
        self._preview(text)
        self.post_message(StoryEdited(self.level, text))
