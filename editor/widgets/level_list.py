"""The level list: the campaign itself, then its levels in order."""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from cardrogue.editor.messages import LevelChosen, MapWanted
from cardrogue.editor.shown import content
from cardrogue.engine.model.campaign import Campaign

CAMPAIGN_OPTION = "campaign"


class OneLine(Visual):
    """``head`` + ``title`` + ``tail`` on one line: the title alone gives way, ended by "…".

    The sidebar is 28 columns at every terminal size, so a long title would otherwise wrap and
    leave the level's size alone on the next line, where it reads as a level of its own.
    """

    def __init__(self, head: str, title: str, tail: Content = Content("")) -> None:
        self._head = content(head)
        self._title = content(title)
        self._tail = tail

    def _line(self, width: int) -> Content:
        room = width - self._head.cell_length - self._tail.cell_length
        title = self._title.truncate(max(room, 1), ellipsis=True) if self._title.cell_length > room else self._title
        return (self._head + title + self._tail).truncate(width, ellipsis=True)

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return self._line(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._head.cell_length + self._title.cell_length + self._tail.cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    def __str__(self) -> str:
        return (self._head + self._title + self._tail).plain


class LevelList(OptionList):
    BINDINGS = [
        Binding("a", "app.add_level", "Add"),
        Binding("d", "app.duplicate_level", "Duplicate"),
        Binding("delete", "app.remove_level", "Remove"),
        # one entry in the footer for both, "[ ] Move", so the level list's keys fit 80 columns
        Binding("left_square_bracket", "app.move_level(-1)", "Move", key_display="[ ]"),
        Binding("right_square_bracket", "app.move_level(1)", "Move down", show=False),
        Binding("p", "app.level_properties", "Properties"),
        Binding("m", "app.metadata", "Metadata", show=False),
    ]

    def show(self, campaign: Campaign, current: int | None) -> None:
        options = [Option(OneLine("◆ ", campaign.title or campaign.id), id=CAMPAIGN_OPTION)]
        for i, level in enumerate(campaign.levels):
            size = Content("  ") + content(f"{level.width}×{level.height}", "dim")
            options.append(Option(OneLine(f"{i + 1}. ", level.title or level.id, size), id=f"level-{i}"))
        self.set_options(options)
        self.highlighted = 0 if current is None else current + 1

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index != self.highlighted:
            return  # stale: the list was rebuilt since
        option_id = event.option.id or ""
        self.post_message(LevelChosen(None if option_id == CAMPAIGN_OPTION else int(option_id.split("-")[1])))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(MapWanted())
