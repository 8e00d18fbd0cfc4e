"""The app tests' idle wait (conftest ``_idle_by_condition``, ``app_quiet``): what it counts as nothing left to do."""

from conftest import app_quiet
from helpers import run_async
from textual.app import App, ComposeResult
from textual.widgets import Label


class Shown(App):
    def compose(self) -> ComposeResult:
        yield Label("shown")


@run_async
async def test_a_batch_held_while_the_app_runs_is_not_idle():
    """Textual's Markdown (a story, a help page) holds the app's drawing in a batch while it awaits its blocks'
    mounting: the wait took any batch for the app shutting down and ended there, every queue empty, the screen
    not yet laid out. Only an app exiting, whose drawing never comes, is idle in a batch."""
    app = Shown()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app_quiet(app)
        with app.batch_update():  # (the state mid-update: every queue empty, the screen's layout asked for)
            app.screen._layout_required = True
            assert not app_quiet(app)
            app._exit = True  # (what App.exit sets first: the app's shutting down holds a batch until it is gone)
            assert app_quiet(app)
