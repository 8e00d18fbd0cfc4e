"""The level list: the campaign itself, then its levels in order."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from cardrogue.editor.messages import LevelChosen
from cardrogue.editor.shown import markup
from cardrogue.engine.model.campaign import Campaign

CAMPAIGN_OPTION = "campaign"


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
        options = [Option(markup("◆ $title", title=campaign.title or campaign.id), id=CAMPAIGN_OPTION)]
        for i, level in enumerate(campaign.levels):
            options.append(Option(markup(f"{i + 1}. $title  [dim]{level.width}×{level.height}[/]", title=level.title or level.id),
                                  id=f"level-{i}"))
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
        self.app.action_focus_map()
